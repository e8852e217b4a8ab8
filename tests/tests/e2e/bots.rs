//! The bot opponents (docs/bots.md): listed without a token, nobody can
//! log in as one or take its name.

use serde_json::Value;

use crate::contract::Contract;
use crate::harness::{assert_problem, PASSWORD};

backend_tests! {
    async fn bots_are_listed_without_a_token(app) {
        let response = app.get("/api/v1/bots", None).await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "public, max-age=3600");
        let body: Value = response.json().await.unwrap();
        Contract::new().check("list_bots", 200, &body);
        let bots = body["bots"].as_array().unwrap();
        let names: Vec<&str> = bots.iter().map(|b| b["username"].as_str().unwrap()).collect();
        assert_eq!(names, ["bot-random", "bot-tactician"]);
        for bot in bots {
            assert!(bot["description"].as_str().is_some_and(|d| d.len() > 20), "{bot}");
        }
        assert!(bots[0]["strength"].as_u64() < bots[1]["strength"].as_u64(), "{body}");
    }

    async fn nobody_logs_in_as_a_bot_or_takes_its_name(app) {
        for name in ["bot-random", "bot-tactician"] {
            for password in [PASSWORD, "", "!bot: no password matches"] {
                assert_problem(app.login(name, password).await, 401, "unauthorized").await;
            }
            assert_problem(app.register(name, PASSWORD).await, 409, "username_taken").await;
        }
    }
}
