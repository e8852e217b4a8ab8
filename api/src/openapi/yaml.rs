//! The document as YAML, as committed in `openapi.yaml`, readable alike by
//! YAML 1.1 and 1.2 parsers.

/// The document as YAML, as committed in `openapi.yaml`: what
/// `to_yaml` writes, with every plain scalar that a YAML 1.1 parser
/// (PyYAML, ...) would load as a date or time quoted, so that every
/// parser reads exactly the served JSON.
pub fn openapi_yaml(doc: &utoipa::openapi::OpenApi) -> Result<String, String> {
    let yaml = doc.to_yaml().map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(yaml.len() + 256);
    // Inside a block scalar (`|-`): lines indented more than its key.
    let mut block: Option<usize> = None;
    for line in yaml.lines() {
        let indent = line.len() - line.trim_start().len();
        if let Some(key_indent) = block {
            if line.trim().is_empty() || indent > key_indent {
                out.push_str(line);
                out.push('\n');
                continue;
            }
            block = None;
        }
        let trimmed = line.trim_end();
        if trimmed.ends_with('|')
            || trimmed.ends_with("|-")
            || trimmed.ends_with("|+")
            || trimmed.ends_with('>')
            || trimmed.ends_with(">-")
        {
            block = Some(indent);
        }
        out.push_str(&quote_timestamp(line));
        out.push('\n');
    }
    Ok(out)
}

/// `line` with its plain scalar value quoted if it looks like a YAML 1.1
/// timestamp (`2026-12-01`, `2026-12-01T10:00:00Z`).
fn quote_timestamp(line: &str) -> String {
    let mut start = line.len() - line.trim_start().len();
    while line[start..].starts_with("- ") {
        start += 2;
    }
    let value_start = match line[start..].find(": ") {
        Some(colon) => start + colon + 2,
        None => start,
    };
    let value = &line[value_start..];
    let bytes = value.as_bytes();
    let looks_like_date = bytes.len() >= 8
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[5].is_ascii_digit();
    if looks_like_date {
        format!("{}'{}'", &line[..value_start], value.replace('\'', "''"))
    } else {
        line.to_owned()
    }
}
