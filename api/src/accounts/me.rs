//! `me`: the caller's own account.

use uuid::Uuid;

use super::answers::UserView;
use super::{AccountError, Context};
use crate::db;
use crate::storage::users;

pub async fn me(ctx: &Context, user_id: Uuid) -> Result<UserView, AccountError> {
    let id = user_id.to_string();
    let row =
        db::run_as::<_, AccountError, _>(&ctx.pool, move |conn| Ok(users::find_by_id(conn, &id)?))
            .await?;
    let row = row
        .filter(|row| row.deleted_at.is_none())
        .ok_or(AccountError::AccountGone)?;
    UserView::from_row(&row)
}
