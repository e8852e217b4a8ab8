//! `GET /problems/{name}`: the page a problem's `type` URI names
//! (`/problems/illegal-move`), explaining the problem in plain text, from
//! docs/errors.md.

use actix_web::{get, web, HttpResponse};
use utoipa_actix_web::service_config::ServiceConfig;

use crate::error::{ApiError, ProblemKind};

const ERRORS_MD: &str = include_str!("../../../docs/errors.md");

pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(get_problem);
}

/// The cells of a markdown table row, without backticks.
fn cells(line: &str) -> Option<Vec<String>> {
    let inner = line.trim().strip_prefix('|')?.strip_suffix('|')?;
    Some(
        inner
            .split(" | ")
            .map(|cell| cell.trim().replace('`', ""))
            .collect(),
    )
}

/// The plain-text page of `kind`.
pub fn page(kind: ProblemKind) -> String {
    let code = kind.code();
    let mut when = Vec::new();
    let mut reasons = Vec::new();
    for row in ERRORS_MD.lines().filter_map(cells) {
        match row.as_slice() {
            [first, status, text] if first == code && status.parse::<u16>().is_ok() => {
                when.push(format!("- {status}: {text}"));
            }
            [reason, of, text, ..] if of == code && reason != "reason" => {
                reasons.push(format!("- {reason}: {text}"));
            }
            _ => {}
        }
    }
    let mut text = format!(
        "{title} ({code})\n\ntype: {uri}\n\nThe server answers with this problem when:\n{when}\n",
        title = kind.title(),
        uri = kind.type_uri(),
        when = when.join("\n"),
    );
    if !reasons.is_empty() {
        text.push_str(&format!(
            "\nThe `reason` member says why:\n{}\n",
            reasons.join("\n")
        ));
    }
    text.push_str(
        "\nEvery error is an RFC 9457 problem document (application/problem+json) with \
         type, title, status, detail and code; program against code. The full list is \
         docs/errors.md in the repository, and the schema is in /api-docs/openapi.json.\n",
    );
    text
}

/// The names `/problems/{name}` answers: each code with dashes.
fn names() -> Vec<String> {
    ProblemKind::ALL
        .iter()
        .map(|k| k.code().replace('_', "-"))
        .collect()
}

/// The page a problem's type URI names.
///
/// Plain text explaining the problem: when it is sent and, for refusals of
/// the rules engine, every `reason`. Needs no token.
#[utoipa::path(
    tag = "operations",
    operation_id = "get_problem",
    params(("name" = String, Path, description = "The problem's name: its code with dashes",
            example = "illegal-move")),
    responses(
        (status = 200, description = "The explanation", content_type = "text/plain",
         body = String),
        (status = 404, response = crate::openapi::NotFound),
    )
)]
#[get("/problems/{name}")]
pub async fn get_problem(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let kind = ProblemKind::ALL
        .into_iter()
        .find(|k| k.code().replace('_', "-") == name)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no such problem; the problems are: {}",
                names().join(", ")
            ))
        })?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header(("Cache-Control", "public, max-age=3600"))
        .body(page(kind)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_has_a_page_from_the_docs() {
        for kind in ProblemKind::ALL {
            let text = page(kind);
            assert!(
                text.contains("\n- "),
                "{} has no row in docs/errors.md",
                kind.code()
            );
        }
        assert!(page(ProblemKind::IllegalMove).contains("- through_lake: "));
        assert!(page(ProblemKind::WrongPhase).contains("- no_draw_offer: "));
    }
}
