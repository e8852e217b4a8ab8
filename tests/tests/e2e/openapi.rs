//! The OpenAPI document: committed copy in sync, and structurally sound.

use std::collections::HashSet;

use serde_json::Value;

const OPENAPI_YAML: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi.yaml");

fn document() -> Value {
    serde_json::to_value(api::openapi_document()).unwrap()
}

/// `openapi.yaml` must be exactly what the code generates. After a change
/// to the API, regenerate it with
/// `cargo run -p api -- openapi --output openapi.yaml`
/// (or run this test with `UPDATE_OPENAPI=1`).
#[test]
fn committed_openapi_yaml_matches_the_code() {
    let generated = api::openapi::openapi_yaml(&api::openapi_document()).unwrap();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(OPENAPI_YAML, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(OPENAPI_YAML).unwrap_or_default();
    assert!(
        committed == generated,
        "openapi.yaml is out of date; regenerate it with \
         `cargo run -p api -- openapi --output openapi.yaml`"
    );
}

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            found.push((path.clone(), method.clone(), operation));
        }
    }
    found
}

fn collect_refs<'a>(value: &'a Value, refs: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key == "$ref" {
                    refs.push(inner.as_str().unwrap());
                } else {
                    collect_refs(inner, refs);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| collect_refs(item, refs)),
        _ => {}
    }
}

#[test]
fn every_reference_resolves() {
    let doc = document();
    let mut refs = Vec::new();
    collect_refs(&doc, &mut refs);
    assert!(!refs.is_empty());
    for reference in refs {
        let pointer = reference
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("external ref {reference}"));
        assert!(doc.pointer(pointer).is_some(), "dangling $ref {reference}");
    }
}

#[test]
fn operations_are_named_tagged_and_answer_problems() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["info"]["title"].as_str().is_some());
    let mut ids = HashSet::new();
    let operations = operations(&doc);
    assert!(operations.len() >= 7);
    for (path, method, operation) in &operations {
        assert!(
            path.starts_with("/api/v1/")
                || path == "/healthz"
                || path == "/readyz"
                || path == "/problems/{name}",
            "{path} is outside /api/v1"
        );
        let id = operation["operationId"]
            .as_str()
            .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
        assert!(ids.insert(id.to_owned()), "duplicate operationId {id}");
        let (verb, resource) = id
            .split_once('_')
            .unwrap_or_else(|| panic!("{id} is not verb_resource"));
        assert!(!verb.is_empty() && !resource.is_empty(), "{id}");
        assert!(
            id.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
            "{id}"
        );
        assert!(
            operation["tags"].as_array().is_some_and(|t| !t.is_empty()),
            "{id} has no tag"
        );
        let responses = operation["responses"].as_object().unwrap();
        assert!(
            responses.keys().any(|s| s.starts_with('2')),
            "{id} has no success response"
        );
        for (status, response) in responses {
            if status.starts_with('4') || status.starts_with('5') {
                let reference = response["$ref"].as_str().map(str::to_owned);
                let resolved = match reference {
                    Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap().clone(),
                    None => response.clone(),
                };
                assert!(
                    resolved["content"]["application/problem+json"].is_object(),
                    "{id} {status} is not a problem response"
                );
            }
        }
        let secured = operation["security"]
            .as_array()
            .is_some_and(|s| !s.is_empty());
        if secured {
            assert!(
                responses.contains_key("401"),
                "{id} is secured but documents no 401"
            );
            assert!(operation["security"][0]["bearer"].is_array(), "{id}");
        }
        if operation["requestBody"]["content"]["application/json"].is_object() {
            // Any JSON body can be too large, of the wrong media type,
            // unreadable or of the wrong shape: every one of those answers
            // must be documented, whatever the method.
            for status in ["400", "413", "415", "422"] {
                assert!(
                    responses.contains_key(status),
                    "{method} {id} takes JSON but documents no {status}"
                );
            }
        }
    }
    for expected in [
        "register_user",
        "login_user",
        "refresh_token",
        "logout_user",
        "get_me",
        "get_health",
        "get_readiness",
    ] {
        assert!(ids.contains(expected), "missing {expected}");
    }
}

#[test]
fn security_scheme_and_problem_schema_are_described() {
    let doc = document();
    let scheme = &doc["components"]["securitySchemes"]["bearer"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    assert_eq!(scheme["bearerFormat"], "JWT");
    let problem = &doc["components"]["schemas"]["Problem"];
    for member in ["type", "title", "status", "detail", "code"] {
        assert!(
            problem["properties"][member].is_object(),
            "Problem lacks {member}"
        );
    }
    let codes: Vec<&str> = problem["properties"]["code"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    for kind in api::ProblemKind::ALL {
        assert!(
            codes.contains(&kind.code()),
            "{} missing from the code enum",
            kind.code()
        );
    }
    let me = &doc["paths"]["/api/v1/me"]["get"];
    assert_eq!(me["security"][0]["bearer"], serde_json::json!([]));
}

/// Whether `schema` is `oneOf: [X, {type: null}]`: an optional value, not a
/// union of shapes.
fn is_nullable_wrapper(schema: &Value) -> bool {
    schema["oneOf"]
        .as_array()
        .is_some_and(|items| items.len() == 2 && items.iter().any(|i| i["type"] == "null"))
}

fn visit_schemas<'a>(value: &'a Value, found: &mut Vec<&'a Value>) {
    match value {
        Value::Object(map) => {
            found.push(value);
            map.values().for_each(|inner| visit_schemas(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| visit_schemas(inner, found)),
        _ => {}
    }
}

/// Generators (openapi-python-client, openapi-typescript) need every union
/// to be a `oneOf` of named object schemas with a `discriminator` whose
/// mapping names each of them, the tag required and a single-value enum.
#[test]
fn unions_are_discriminated_oneofs_of_named_schemas() {
    let doc = document();
    let mut all = Vec::new();
    visit_schemas(&doc, &mut all);
    let mut unions = 0;
    for schema in all {
        assert!(schema.get("allOf").is_none(), "allOf in {schema}");
        assert!(schema.get("anyOf").is_none(), "anyOf in {schema}");
        let Some(items) = schema["oneOf"].as_array() else {
            continue;
        };
        if is_nullable_wrapper(schema) {
            continue;
        }
        unions += 1;
        let Some(property) = schema["discriminator"]["propertyName"].as_str() else {
            // Without a tag, only closed objects told apart by their
            // required members (SetupRequest).
            let mut required_sets = Vec::new();
            for item in items {
                let reference = item["$ref"].as_str().expect("a named variant");
                let variant = doc.pointer(reference.trim_start_matches('#')).unwrap();
                assert_eq!(variant["additionalProperties"], false, "{reference}");
                let required: HashSet<String> = variant["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().to_owned())
                    .collect();
                for other in &required_sets {
                    assert!(required.is_disjoint(other), "{reference} overlaps");
                }
                required_sets.push(required);
            }
            continue;
        };
        let mapping = schema["discriminator"]["mapping"].as_object().unwrap();
        assert_eq!(mapping.len(), items.len(), "{schema}");
        for (tag, reference) in mapping {
            let reference = reference.as_str().unwrap();
            assert!(
                items.iter().any(|i| i["$ref"] == reference),
                "{reference} mapped but not in oneOf"
            );
            let variant = doc.pointer(reference.trim_start_matches('#')).unwrap();
            assert_eq!(variant["type"], "object", "{reference}");
            assert!(
                variant["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r == property),
                "{reference} does not require {property}"
            );
            assert_eq!(
                variant["properties"][property]["enum"],
                serde_json::json!([tag]),
                "{reference}"
            );
        }
    }
    assert!(unions >= 1);
    let page = &doc["components"]["schemas"]["EventPage"]["properties"]["events"];
    assert_eq!(page["items"]["$ref"], "#/components/schemas/Event");
    let event = &doc["components"]["schemas"]["Event"];
    assert_eq!(event["oneOf"].as_array().unwrap().len(), 15);
    for (tag, reference) in event["discriminator"]["mapping"].as_object().unwrap() {
        let variant = doc
            .pointer(reference.as_str().unwrap().trim_start_matches('#'))
            .unwrap();
        // A game's events name the game; a tournament's, the tournament.
        let about = if tag.starts_with("tournament_") || tag == "round_started" {
            "tournament_id"
        } else {
            "game_id"
        };
        for member in ["id", "type", "created_at", about] {
            assert!(
                variant["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|r| r == member),
                "{reference} lacks {member}"
            );
        }
    }
}

/// The `Square` pattern accepts exactly what the server parses.
#[test]
fn the_square_pattern_is_the_parser() {
    let doc = document();
    let pattern = doc["components"]["schemas"]["Square"]["pattern"]
        .as_str()
        .unwrap();
    let regex = regex::Regex::new(pattern).unwrap();
    let alphabet = [
        'a', 'e', 'j', 'k', 'A', 'J', 'K', '0', '1', '2', '9', ' ', 'é',
    ];
    let mut candidates: Vec<String> = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = candidates
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        candidates.extend(longer);
        candidates.sort();
        candidates.dedup();
    }
    assert!(candidates.len() > 20_000);
    for text in candidates {
        assert_eq!(
            regex.is_match(&text),
            text.parse::<domain::Square>().is_ok(),
            "{text:?}"
        );
    }
    let placement = &doc["components"]["schemas"]["PlacementSetup"]["properties"]["placement"];
    assert_eq!(placement["propertyNames"]["pattern"], pattern);
}

/// Every operation may answer 500; every answer names its request id; the
/// answers that carry a view's ETag say so.
#[test]
fn every_answer_documents_its_headers() {
    let doc = document();
    for (path, method, operation) in operations(&doc) {
        let id = operation["operationId"].as_str().unwrap();
        let responses = operation["responses"].as_object().unwrap();
        assert!(responses.contains_key("500"), "{method} {path} has no 500");
        for (status, response) in responses {
            let resolved = match response["$ref"].as_str() {
                Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap(),
                None => response,
            };
            assert!(
                resolved["headers"]["X-Request-Id"].is_object(),
                "{id} {status} has no X-Request-Id"
            );
            if ["429", "503"].contains(&status.as_str()) {
                assert!(
                    resolved["headers"]["Retry-After"].is_object(),
                    "{id} {status}"
                );
            }
        }
    }
    for id in [
        "create_game",
        "join_game",
        "place_setup",
        "play_move",
        "draw_game",
        "resign_game",
        "offer_rematch",
    ] {
        let (_, _, operation) = operations(&doc)
            .into_iter()
            .find(|(_, _, o)| o["operationId"] == id)
            .unwrap();
        let success = operation["responses"]
            .as_object()
            .unwrap()
            .iter()
            .find(|(s, _)| s.starts_with('2'))
            .unwrap()
            .1;
        assert!(success["headers"]["ETag"].is_object(), "{id} has no ETag");
    }
}

/// Swagger UI lists operations by summary: short, plain, no code.
#[test]
fn summaries_are_short_and_plain_and_tags_ordered() {
    let doc = document();
    for (path, method, operation) in operations(&doc) {
        let summary = operation["summary"].as_str().unwrap_or_default();
        assert!(
            !summary.is_empty() && summary.len() <= 40,
            "{method} {path}: {summary:?}"
        );
        assert!(
            !summary.contains('`') && !summary.ends_with('.'),
            "{summary:?}"
        );
        assert!(operation["description"].is_string(), "{method} {path}");
        if method == "get" {
            let example = &operation["responses"]["400"]["content"]["application/problem+json"]
                ["example"]["detail"];
            assert!(
                !example.as_str().unwrap_or_default().contains("JSON"),
                "{method} {path} shows a JSON-body 400"
            );
        }
    }
    let tags: Vec<&str> = doc["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tags,
        [
            "accounts",
            "games",
            "setups",
            "events",
            "notifications",
            "players",
            "tournaments",
            "operations"
        ]
    );
    for tag in doc["tags"].as_array().unwrap() {
        assert!(tag["description"].is_string());
    }
}

/// Swagger UI lists a tag's operations in the order of the document's
/// paths: that of a first game, not the alphabet (which put "Log in"
/// before "Create an account" and the variants last).
#[test]
fn operations_are_listed_in_the_order_of_a_first_game() {
    let doc = api::openapi_document();
    let mut listed: Vec<(String, Vec<String>)> = Vec::new();
    for item in doc.paths.paths.values() {
        // One path's methods in the order they are served (a JSON value
        // would sort them by name).
        let item = serde_json::to_value(item).unwrap();
        let methods = [
            "get", "put", "post", "delete", "options", "head", "patch", "trace",
        ];
        for operation in methods.iter().filter_map(|m| item.get(*m)) {
            let tag = operation["tags"][0].as_str().unwrap().to_owned();
            let id = operation["operationId"].as_str().unwrap().to_owned();
            match listed.iter_mut().find(|(t, _)| *t == tag) {
                Some((_, ids)) => ids.push(id),
                None => listed.push((tag, vec![id])),
            }
        }
    }
    let of = |tag: &str| listed.iter().find(|(t, _)| t == tag).unwrap().1.clone();
    assert_eq!(
        of("accounts"),
        [
            "register_user",
            "login_user",
            "refresh_token",
            "logout_user",
            "get_me",
            "delete_me",
            "change_password",
            "end_sessions",
            "get_vacation",
            "start_vacation",
            "end_vacation",
            "set_auto_vacation"
        ]
    );
    assert_eq!(
        of("games"),
        [
            "list_variants",
            "list_bots",
            "list_games",
            "create_game",
            "get_game",
            "join_game",
            "decline_game",
            "abort_game",
            "place_setup",
            "list_moves",
            "play_move",
            "resign_game",
            "draw_game",
            "offer_rematch",
            "get_board_svg",
            "get_board_png",
            "export_game",
        ]
    );
    assert_eq!(
        of("events"),
        ["list_events", "stream_events", "stream_game"]
    );
    // The served JSON keeps that order.
    let served = serde_json::to_string(&doc).unwrap();
    let at = |path: &str| served.find(&format!("\"{path}\":{{")).unwrap();
    assert!(at("/api/v1/auth/register") < at("/api/v1/auth/login"));
    assert!(at("/api/v1/variants") < at("/api/v1/games"));
}

/// Swagger UI names a union's members by their `title` (else `#0 object`,
/// `#1 object`, ...): each one named in a `oneOf` has its schema name.
#[test]
fn union_members_are_titled_by_name() {
    let doc = document();
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    let mut checked = 0;
    for union in schemas.values() {
        for member in union["oneOf"].as_array().into_iter().flatten() {
            if let Some(name) = member["$ref"].as_str() {
                let name = name.trim_start_matches("#/components/schemas/");
                assert_eq!(schemas[name]["title"], name);
                checked += 1;
            }
        }
    }
    assert!(checked >= 9 + 5 + 2, "{checked}");
}

/// Every JSON answer has a written example (on the answer or its schema),
/// so Swagger UI never shows one it made up (`"old_number": "string"`).
#[test]
fn every_json_answer_has_a_written_example() {
    let doc = document();
    for (path, method, operation) in operations(&doc) {
        for (status, response) in operation["responses"].as_object().unwrap() {
            let resolved = match response["$ref"].as_str() {
                Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap(),
                None => response,
            };
            for (media, content) in resolved["content"].as_object().into_iter().flatten() {
                if !media.contains("json") {
                    continue;
                }
                let schema = match content["schema"]["$ref"].as_str() {
                    Some(r) => doc.pointer(r.trim_start_matches('#')).unwrap(),
                    None => &content["schema"],
                };
                assert!(
                    content.get("example").is_some() || schema.get("example").is_some(),
                    "{method} {path} {status} {media} has no written example"
                );
            }
        }
    }
}

/// "Try it out" on the event feed answers at once, with the caller's events
/// from the start: `wait` and `after` are pre-filled with 0.
#[test]
fn the_event_feed_tries_out_at_once_from_the_start() {
    let doc = document();
    let parameters = doc["paths"]["/api/v1/events"]["get"]["parameters"]
        .as_array()
        .unwrap();
    for name in ["wait", "after"] {
        let parameter = parameters.iter().find(|p| p["name"] == name).unwrap();
        assert_eq!(parameter["example"], 0, "{name}");
    }
}

/// A YAML 1.1 parser (PyYAML, which loads unquoted dates as dates) reads
/// `openapi.yaml` as exactly the served JSON. Skipped, saying so, where
/// `python3 -c 'import yaml'` fails; under CI (`CI` set) that fails it, as
/// `.ci/run` installs PyYAML.
#[test]
fn a_yaml_1_1_parser_reads_the_served_document() {
    let skip = |why: String| {
        assert!(
            std::env::var_os("CI").is_none_or(|v| v.is_empty()),
            "{why}; CI must run this check"
        );
        println!("skipped: {why}");
    };
    let script = "import json, sys, yaml\n\
                  print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))";
    let output = std::process::Command::new("python3")
        .args(["-c", script, OPENAPI_YAML])
        .output();
    let output = match output {
        Ok(output) if output.status.success() => output,
        Ok(output) if String::from_utf8_lossy(&output.stderr).contains("No module named") => {
            return skip("PyYAML is not installed (pip install pyyaml)".to_owned());
        }
        Ok(output) => panic!("{}", String::from_utf8_lossy(&output.stderr)),
        Err(error) => return skip(format!("no python3 ({error})")),
    };
    let loaded: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        loaded == document(),
        "PyYAML reads openapi.yaml differently from the JSON"
    );
}

/// The streams say what each frame's `data:` holds.
#[test]
fn streams_name_the_schema_of_their_frames() {
    let doc = document();
    for (path, schema) in [
        ("/api/v1/events/stream", "Event"),
        ("/api/v1/games/{id}/stream", "GameView"),
    ] {
        let content =
            &doc["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"];
        let data = &content["schema"]["properties"]["data"];
        assert_eq!(data["contentMediaType"], "application/json", "{path}");
        assert_eq!(
            data["contentSchema"]["$ref"],
            format!("#/components/schemas/{schema}"),
            "{path}"
        );
        assert!(content["description"].as_str().unwrap().contains("data:"));
    }
}

/// Every link leads to an operation of the document, names parameters
/// that operation has, and takes its values from what the answer it
/// leaves (or its request) has; and the links walk a game from its
/// creation to its moves.
#[test]
fn links_lead_to_real_operations_with_values_the_answers_have() {
    let doc = document();
    let operations = operations(&doc);
    let by_id = |id: &str| {
        operations
            .iter()
            .find(|(_, _, operation)| operation["operationId"] == id)
            .map(|(_, _, operation)| *operation)
            .unwrap_or_else(|| panic!("a link to {id}, which is no operation"))
    };
    let resolve = |schema: &Value| match schema["$ref"].as_str() {
        Some(reference) => doc
            .pointer(reference.trim_start_matches('#'))
            .unwrap()
            .clone(),
        None => schema.clone(),
    };
    let mut edges = HashSet::new();
    for (_, _, operation) in &operations {
        let source = operation["operationId"].as_str().unwrap();
        for (status, response) in operation["responses"].as_object().unwrap() {
            for (name, link) in response["links"].as_object().into_iter().flatten() {
                let target = link["operationId"].as_str().unwrap();
                let target_operation = by_id(target);
                let answer = resolve(&response["content"]["application/json"]["schema"]);
                let mut values: Vec<&str> = Vec::new();
                for (parameter, value) in link["parameters"].as_object().into_iter().flatten() {
                    let (place, parameter) = parameter.split_once('.').unwrap();
                    let declared = target_operation["parameters"].as_array().unwrap();
                    assert!(
                        declared
                            .iter()
                            .any(|p| p["name"] == parameter && p["in"] == place),
                        "{source} {status} {name}: {target} has no {place} parameter {parameter}"
                    );
                    values.push(value.as_str().unwrap());
                }
                for value in link["requestBody"].as_object().into_iter().flatten() {
                    values.push(value.1.as_str().unwrap());
                }
                for value in values {
                    let pointer = value
                        .strip_prefix("$response.body#")
                        .unwrap_or_else(|| panic!("{source} {name}: {value}"));
                    let mut schema = answer.clone();
                    for step in pointer.split('/').skip(1) {
                        schema = if step.parse::<usize>().is_ok() {
                            resolve(&schema["items"])
                        } else {
                            resolve(&schema["properties"][step])
                        };
                        assert!(
                            schema.is_object(),
                            "{source} {status} {name}: the answer has no {pointer}"
                        );
                    }
                }
                edges.insert((source.to_owned(), target.to_owned()));
            }
        }
    }
    for (source, target) in [
        ("create_game", "join_game"),
        ("join_game", "place_setup"),
        ("place_setup", "place_setup"),
        ("place_setup", "get_game"),
        ("get_game", "play_move"),
        ("play_move", "get_game"),
        ("login_user", "refresh_token"),
    ] {
        assert!(
            edges.contains(&(source.to_owned(), target.to_owned())),
            "no link from {source} to {target}"
        );
    }
}
