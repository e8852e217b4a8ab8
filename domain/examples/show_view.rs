//! Prints a short random game's views as JSON: `cargo run -p domain --example show_view`.

use domain::playout::{random_game, random_playout};
use domain::{Color, Rules, Variant, Viewer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut game = random_game(Variant::Barrage, Rules::default(), 5)?;
    let summary = random_playout(&mut game, 5, 40);
    println!("summary: {summary:?}");
    for viewer in [Viewer::Player(Color::Red), Viewer::Spectator] {
        println!("{viewer:?}: {}", serde_json::to_string(&game.view(viewer))?);
    }
    if let Some(record) = game.full_truth().last_move() {
        println!("record: {}", serde_json::to_string(record)?);
        let view = game.move_view(record, Viewer::Player(record.color.opponent()));
        println!(
            "move view for the opponent: {}",
            serde_json::to_string(&view)?
        );
    }
    println!("state: {}", serde_json::to_string(&game)?);
    Ok(())
}
