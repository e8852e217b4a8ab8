//! What the server serves of its documentation: the OpenAPI document
//! (also written by `api openapi`), made once for all HTTP workers, and
//! the table of documented routes the fallback reads to tell 405 from 404.

use actix_web::dev::ResourceDef;
use actix_web::http::Method;
use actix_web::{web, App};
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

use crate::error::BoxError;
use crate::openapi::ApiDoc;
use crate::routes;
use crate::routes::extract::ParameterTable;

/// The OpenAPI document exactly as the server serves it.
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    let doc = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::configure)
        .split_for_parts()
        .1;
    crate::openapi::finish(doc, routes::bad_request_example, routes::header_schema)
}

/// What every worker serves of the documentation, made once for all of
/// them: the finished document as JSON, and the tables the errors read
/// from it. (Made per worker, they held about 5 MiB per worker for as long
/// as it ran: BENCHMARKS.md, "Thirteenth measurement".)
#[derive(Clone)]
pub struct ServedDocs {
    pub(super) json: web::Bytes,
    pub(super) routes: web::Data<RouteTable>,
    pub(super) parameters: web::Data<ParameterTable>,
}

impl ServedDocs {
    /// [`ServedDocs::new`] on a thread of its own that ends with it: what
    /// making the document allocates for a moment stays in that thread's
    /// malloc arena, which the first worker thread started after it takes
    /// over and reuses, instead of staying in the main thread's for good.
    pub(super) fn made_aside() -> Result<Self, BoxError> {
        std::thread::scope(|scope| {
            let making = std::thread::Builder::new()
                .name("openapi".into())
                .spawn_scoped(scope, ServedDocs::new)?;
            match making.join() {
                Ok(made) => Ok(made?),
                Err(panic) => {
                    let why = panic
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    Err(format!("making the OpenAPI document panicked: {why}").into())
                }
            }
        })
    }

    fn new() -> Result<Self, serde_json::Error> {
        let doc = openapi_document();
        Ok(ServedDocs {
            json: serde_json::to_vec(&doc)?.into(),
            routes: web::Data::new(RouteTable::from_openapi(&doc)),
            parameters: web::Data::new(ParameterTable::from_openapi(&doc)),
        })
    }
}

/// Documented paths and their methods, to tell "wrong method" (405) from
/// "no such path" (404) in the fallback.
#[derive(Debug)]
pub struct RouteTable(Vec<(ResourceDef, Vec<Method>)>);

impl RouteTable {
    pub fn from_openapi(doc: &utoipa::openapi::OpenApi) -> Self {
        let routes = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let methods = [
                    (Method::GET, item.get.is_some()),
                    (Method::POST, item.post.is_some()),
                    (Method::PUT, item.put.is_some()),
                    (Method::PATCH, item.patch.is_some()),
                    (Method::DELETE, item.delete.is_some()),
                ]
                .into_iter()
                .filter_map(|(method, present)| present.then_some(method))
                .collect();
                (ResourceDef::new(path.as_str()), methods)
            })
            .collect();
        Self(routes)
    }

    /// The methods served at `path`, if any route matches it.
    pub fn allowed(&self, path: &str) -> Option<Vec<Method>> {
        let mut methods: Vec<Method> = self
            .0
            .iter()
            .filter(|(def, _)| def.is_match(path))
            .flat_map(|(_, methods)| methods.iter().cloned())
            .collect();
        if methods.is_empty() {
            return None;
        }
        methods.dedup();
        Some(methods)
    }
}
