//! What account commands answer with.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use super::AccountError;
use crate::storage::from_db_time;
use crate::storage::users::UserRow;

/// A user account as others may see it.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann",
                           "created_at": "2026-11-29T19:00:00Z"}))]
pub struct UserView {
    pub id: Uuid,
    pub username: String,
    pub created_at: DateTime<Utc>,
}

impl UserView {
    pub fn from_row(row: &UserRow) -> Result<Self, AccountError> {
        Ok(Self {
            id: Uuid::parse_str(&row.id).map_err(AccountError::internal)?,
            username: row.username.clone(),
            created_at: from_db_time(row.created_at),
        })
    }
}

/// A fresh access token and refresh token.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl",
    "refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs", "token_type": "Bearer",
    "expires_in": 900, "refresh_expires_in": 2592000}))]
pub struct TokenPair {
    /// JWT for `Authorization: Bearer`
    pub access_token: String,
    /// Single-use token for `/auth/refresh`; store it safely
    pub refresh_token: String,
    /// Always `Bearer`
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    /// Seconds until the access token expires
    pub expires_in: i64,
    /// Seconds until the refresh token expires
    pub refresh_expires_in: i64,
}

/// The new account and its first tokens.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"user": {"id": "6f1c2a8e-2b7d-4f7e-9a51-0c0b8d2f9e11", "username": "ann",
    "created_at": "2026-11-29T19:00:00Z"},
    "access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIuLi4ifQ.c2lnbmF0dXJl",
    "refresh_token": "3q2-7wAAAAC8lJkq3sNwQ0b9v8p4cXhYg0yZlIc8nfs", "token_type": "Bearer",
    "expires_in": 900, "refresh_expires_in": 2592000}))]
pub struct Registered {
    pub user: UserView,
    pub access_token: String,
    pub refresh_token: String,
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    pub expires_in: i64,
    pub refresh_expires_in: i64,
}
