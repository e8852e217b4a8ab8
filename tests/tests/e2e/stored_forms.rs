//! Rows written before the compact stored forms (docs/storage.md): a game
//! whose state and setups are the JSON documents of before reads exactly as
//! it did, plays on, and its next change writes it in the compact form.

use api::games::GameRecord;
use api::schema::games;
use api::storage::games::GameRow;
use diesel::prelude::*;
use domain::{Color, Rules, Variant};

use crate::harness::TestApp;
use crate::support::*;

async fn stored(app: &TestApp, id: &str) -> GameRow {
    let id = id.to_owned();
    api::db::run_as::<_, api::ApiError, _>(&app.pool, move |conn| {
        Ok(games::table
            .find(id)
            .select(GameRow::as_select())
            .get_result(conn)?)
    })
    .await
    .unwrap()
}

/// Rewrites the game's state and setups as JSON documents, as every row
/// was written before.
async fn store_as_json(app: &TestApp, id: &str) {
    let record = GameRecord::from_row(&stored(app, id).await).unwrap();
    let state = json(record.game().unwrap());
    let red = json(record.setups.get(Color::Red).unwrap());
    let blue = json(record.setups.get(Color::Blue).unwrap());
    let id = id.to_owned();
    api::db::run_as::<_, api::ApiError, _>(&app.pool, move |conn| {
        diesel::update(games::table.find(id))
            .set((
                games::state.eq(state),
                games::red_setup.eq(red),
                games::blue_setup.eq(blue),
            ))
            .execute(conn)?;
        Ok(())
    })
    .await
    .unwrap();
}

fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).unwrap()
}

backend_tests! {
    async fn a_game_stored_as_json_reads_the_same_plays_on_and_is_written_compact(app) {
        let (red, blue) = two_users(&app, "json").await;
        let rules = Rules { silent_defense: true, ..Rules::tournament() };
        let mut game = random_match(&app, red, blue, Variant::Classic, rules, 11).await;
        play_random(&app, &mut game, 4, 9).await;
        let row = stored(&app, &game.id).await;
        for text in [&row.state, &row.red_setup, &row.blue_setup] {
            let text = text.as_deref().unwrap();
            assert!(!text.starts_with('{'), "written as JSON: {text}");
        }
        let red_view = game_view(&app, &game.id, &game.red).await;
        let blue_view = game_view(&app, &game.id, &game.blue).await;

        store_as_json(&app, &game.id).await;
        let row = stored(&app, &game.id).await;
        assert!(row.state.as_deref().unwrap().starts_with("{\"format\":2"));
        assert!(row.red_setup.as_deref().unwrap().starts_with('{'));
        // Read as before: the same views, the same game.
        assert_eq!(game_view(&app, &game.id, &game.red).await, red_view);
        assert_eq!(game_view(&app, &game.id, &game.blue).await, blue_view);
        assert_eq!(GameRecord::from_row(&row).unwrap().game(), Some(&game.local));

        // Plays on (every answer checked against the domain's own game) ...
        play_random(&app, &mut game, 5, 3).await;
        // ... and the change wrote it compact.
        let row = stored(&app, &game.id).await;
        assert!(row.state.as_deref().unwrap().starts_with("g2:"));
        assert!(row.red_setup.as_deref().unwrap().starts_with("s1:"));
        assert!(row.blue_setup.as_deref().unwrap().starts_with("s1:"));
        assert_eq!(GameRecord::from_row(&row).unwrap().game(), Some(&game.local));
    }
}
