//! Shared fields written out where they are used. A Rust type that opens
//! with `#[serde(flatten)] header: GameHeader` is derived as an `allOf` of
//! the header and its own fields; the wire has one flat object, and client
//! generators make one plain type of a flat object (an `allOf` becomes an
//! intersection or a subclass), so each such schema is written out whole
//! and the header, then named nowhere, is dropped.

use serde_json::Value;

use super::{schema_ref, Schemas};

/// Writes `part`'s properties and required names into every schema that is
/// an `allOf` of it and one inline object, then drops `part` if no schema
/// names it any more (call it before anything outside the schemas, a path
/// or a webhook, is given a reference to `part`).
pub fn inline(schemas: &mut Schemas, part: &str) {
    let Some(header) = schemas.get(part).cloned() else {
        return;
    };
    let reference = schema_ref(part);
    for schema in schemas.values_mut() {
        let Some(Value::Array(all_of)) = schema.get("allOf") else {
            continue;
        };
        let [Value::Object(first), Value::Object(own)] = all_of.as_slice() else {
            continue;
        };
        if first.get("$ref").and_then(Value::as_str) != Some(reference.as_str()) {
            continue;
        }
        let mut properties = header
            .get("properties")
            .cloned()
            .unwrap_or_else(|| Value::Object(Schemas::new()));
        let mut required = header
            .get("required")
            .cloned()
            .unwrap_or_else(|| Value::Array(Vec::new()));
        if let (Value::Object(into), Some(Value::Object(more))) =
            (&mut properties, own.get("properties"))
        {
            into.extend(more.clone());
        }
        if let (Value::Array(into), Some(Value::Array(more))) = (&mut required, own.get("required"))
        {
            into.extend(more.iter().cloned());
        }
        let Some(object) = schema.as_object_mut() else {
            continue;
        };
        object.remove("allOf");
        object.insert("type".into(), "object".into());
        object.insert("required".into(), required);
        object.insert("properties".into(), properties);
    }
    let named = serde_json::to_string(&*schemas)
        .map_or(true, |text| text.contains(&format!("\"{reference}\"")));
    if !named {
        schemas.remove(part);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use serde_json::json;

    #[test]
    fn a_header_and_its_own_fields_become_one_object_and_the_header_goes() {
        let mut schemas = json!({
            "Header": {"type": "object", "description": "shared",
                "required": ["id"], "properties": {"id": {"type": "string"}}},
            "View": {"description": "a view", "allOf": [
                {"$ref": "#/components/schemas/Header"},
                {"type": "object", "required": ["you"], "properties": {"you": {"type": "string"}}},
            ]},
        });
        let map = schemas.as_object_mut().unwrap();
        super::inline(map, "Header");
        assert_eq!(
            schemas,
            json!({"View": {"description": "a view", "type": "object", "required": ["id", "you"],
                "properties": {"id": {"type": "string"}, "you": {"type": "string"}}}})
        );
    }

    #[test]
    fn a_header_still_named_elsewhere_stays() {
        let mut schemas = json!({
            "Header": {"type": "object", "properties": {"id": {"type": "string"}}},
            "Other": {"type": "object", "properties": {"h": {"$ref": "#/components/schemas/Header"}}},
        });
        super::inline(schemas.as_object_mut().unwrap(), "Header");
        assert!(schemas.get("Header").is_some());
    }
}
