//! Unions as the wire has them: each variant a named schema, the union a
//! `oneOf` of them with a `discriminator` (so that client generators give
//! every variant a type of its own); and the strings and requests whose
//! accepted values the derive macros cannot say.

use super::{schema_ref, Schemas};

/// `snake_case` to `PascalCase`.
fn pascal(tag: &str) -> String {
    tag.split('_')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A `oneOf` of `refs`, discriminated by `property` (`tag` -> schema name).
fn discriminated(property: &str, variants: &[(String, String)]) -> serde_json::Value {
    let refs: Vec<serde_json::Value> = variants
        .iter()
        .map(|(_, name)| serde_json::json!({"$ref": schema_ref(name)}))
        .collect();
    let mapping: serde_json::Map<String, serde_json::Value> = variants
        .iter()
        .map(|(tag, name)| (tag.clone(), serde_json::Value::String(schema_ref(name))))
        .collect();
    serde_json::json!({
        "oneOf": refs,
        "discriminator": {"propertyName": property, "mapping": mapping},
    })
}

/// The value of a single-value `enum` property (a serde tag).
fn tag_of(variant: &serde_json::Value, property: &str) -> Option<String> {
    variant
        .pointer(&format!("/properties/{property}/enum/0"))
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

/// Every schema a `oneOf` names gets its name as `title`: Swagger UI shows a
/// union's members by title (without one, as `#0 object`, `#1 object`, ...).
/// Generators name a component by its key, which is the same.
pub(super) fn title_union_members(schemas: &mut Schemas) {
    let members: Vec<String> = schemas
        .values()
        .filter_map(|schema| schema["oneOf"].as_array())
        .flatten()
        .filter_map(|member| member["$ref"].as_str())
        .filter_map(|reference| reference.strip_prefix(&schema_ref("")))
        .map(str::to_owned)
        .collect();
    for name in members {
        if let Some(schema) = schemas
            .get_mut(&name)
            .and_then(serde_json::Value::as_object_mut)
        {
            schema
                .entry("title")
                .or_insert_with(|| serde_json::Value::String(name.clone()));
        }
    }
}

/// `Event` (on the wire: `id`, `created_at` and a payload tagged by `type`)
/// as one named schema per event type, each complete, in a `oneOf`
/// discriminated by `type`. The payload union `EventPayload` (an `allOf`
/// of a `oneOf` and an object, which generators cannot read) goes away.
pub(super) fn event_union(schemas: &mut Schemas) {
    let (Some(payload), Some(event)) = (schemas.remove("EventPayload"), schemas.get("Event"))
    else {
        return;
    };
    let common = event
        .pointer("/allOf/1/properties")
        .cloned()
        .unwrap_or_default();
    let description = event.get("description").cloned();
    let example = event.get("example").cloned();
    let mut variants = Vec::new();
    for variant in payload["oneOf"].as_array().into_iter().flatten() {
        let Some(tag) = tag_of(variant, "type") else {
            continue;
        };
        let name = format!("{}Event", pascal(&tag));
        let mut properties = serde_json::Map::new();
        properties.insert("id".into(), common["id"].clone());
        properties.insert(
            "type".into(),
            serde_json::json!({"type": "string", "enum": [tag]}),
        );
        properties.insert("created_at".into(), common["created_at"].clone());
        let mut required = vec![
            serde_json::json!("id"),
            serde_json::json!("type"),
            serde_json::json!("created_at"),
        ];
        if let Some(own) = variant["properties"].as_object() {
            for (key, schema) in own {
                if key != "type" {
                    properties.insert(key.clone(), schema.clone());
                }
            }
        }
        for key in variant["required"].as_array().into_iter().flatten() {
            if key != "type" {
                required.push(key.clone());
            }
        }
        let mut schema = serde_json::json!({
            "type": "object",
            "required": required,
            "properties": properties,
        });
        if let Some(text) = variant.get("description") {
            schema["description"] = text.clone();
        }
        schemas.insert(name.clone(), schema);
        variants.push((tag, name));
    }
    let mut union = discriminated("type", &variants);
    if let Some(description) = description {
        union["description"] = description;
    }
    if let Some(example) = example {
        union["example"] = example;
    }
    schemas.insert("Event".into(), union);
}

/// A union serialized with an internal `tag` (utoipa writes a `oneOf` of
/// inline objects): each variant becomes the named schema
/// `<Tag><suffix>`, and the union a discriminated `oneOf` of them.
pub(super) fn split_union(schemas: &mut Schemas, union: &str, tag: &str, suffix: &str) {
    let Some(schema) = schemas.get(union).cloned() else {
        return;
    };
    let mut variants = Vec::new();
    for variant in schema["oneOf"].as_array().into_iter().flatten() {
        let Some(value) = tag_of(variant, tag) else {
            return;
        };
        let name = format!("{}{suffix}", pascal(&value));
        schemas.insert(name.clone(), variant.clone());
        variants.push((value, name));
    }
    let mut split = discriminated(tag, &variants);
    for member in ["description", "example"] {
        if let Some(value) = schema.get(member) {
            split[member] = value.clone();
        }
    }
    schemas.insert(union.into(), split);
}

/// The variants of `union` (already split) as closed objects: the server
/// refuses members they do not name.
pub(super) fn close_variants(schemas: &mut Schemas, union: &str) {
    let names: Vec<String> = schemas
        .get(union)
        .and_then(|schema| schema["oneOf"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|member| member["$ref"].as_str())
        .filter_map(|reference| reference.strip_prefix(&schema_ref("")))
        .map(str::to_owned)
        .collect();
    for name in names {
        if let Some(variant) = schemas.get_mut(&name) {
            variant["additionalProperties"] = serde_json::Value::Bool(false);
        }
    }
}

/// `SetupRequest` as what the server accepts: a placement, a random setup
/// or a saved one; exactly one (`{}` is refused).
pub(super) fn setup_request(schemas: &mut Schemas) {
    let Some(request) = schemas.get("SetupRequest").cloned() else {
        return;
    };
    let property = |name: &str| request["properties"][name].clone();
    let mut placement = property("placement");
    placement["type"] = serde_json::json!("object");
    // (propertyNames cannot be a $ref in utoipa's model: the Square schema
    // inline.)
    placement["propertyNames"] = serde_json::json!({
        "type": "string",
        "pattern": crate::games::docs::SQUARE_PATTERN,
    });
    let mut random = property("random");
    random["type"] = serde_json::json!("boolean");
    random["enum"] = serde_json::json!([true]);
    let mut seed = property("seed");
    seed["type"] = serde_json::json!(["integer", "null"]);
    schemas.insert(
        "PlacementSetup".into(),
        serde_json::json!({
            "type": "object",
            "description": "Your whole army by square, inside your own setup zone.",
            "required": ["placement"],
            "properties": {"placement": placement},
            "additionalProperties": false,
            "example": {"placement": {"a1": "flag", "b1": "bomb"}},
        }),
    );
    schemas.insert(
        "RandomSetup".into(),
        serde_json::json!({
            "type": "object",
            "description": "A valid random setup placed by the server; `seed` makes it \
                reproducible.",
            "required": ["random"],
            "properties": {"random": random, "seed": seed},
            "additionalProperties": false,
            "example": {"random": true, "seed": 7},
        }),
    );
    let mut saved = property("saved");
    saved["type"] = serde_json::json!("string");
    saved["minLength"] = serde_json::json!(1);
    saved["maxLength"] = serde_json::json!(crate::games::library::NAME_MAX);
    schemas.insert(
        "SavedSetupChoice".into(),
        serde_json::json!({
            "type": "object",
            "description": "One of your saved setups (`/me/setups`) for the game's variant, \
                by name; turned for Blue.",
            "required": ["saved"],
            "properties": {"saved": saved},
            "additionalProperties": false,
            "example": {"saved": "fortress"},
        }),
    );
    let mut union = serde_json::json!({
        "oneOf": [
            {"$ref": schema_ref("PlacementSetup")},
            {"$ref": schema_ref("RandomSetup")},
            {"$ref": schema_ref("SavedSetupChoice")},
        ],
    });
    for member in ["description", "example"] {
        if let Some(value) = request.get(member) {
            union[member] = value.clone();
        }
    }
    schemas.insert("SetupRequest".into(), union);
}

/// Strings that only ever hold one of a few values.
pub(super) fn closed_strings(schemas: &mut Schemas) {
    let closed = [
        ("ProbeStatus", "status", serde_json::json!(["ok", "ready"])),
        ("TokenPair", "token_type", serde_json::json!(["Bearer"])),
        ("Registered", "token_type", serde_json::json!(["Bearer"])),
    ];
    for (schema, property, values) in closed {
        if let Some(target) = schemas
            .get_mut(schema)
            .and_then(|s| s.pointer_mut(&format!("/properties/{property}")))
        {
            target["enum"] = values;
        }
    }
}
