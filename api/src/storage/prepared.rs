//! Hand-written statements that each connection prepares once.
//!
//! diesel never caches a `sql_query` (its text could be built at run time),
//! so PostgreSQL parses and plans such a statement on every call; and a
//! query built with diesel's DSL whose type has no static id (an aliased
//! join) has its SQL text rebuilt on every call to look it up in the cache.
//! A type here has a static id: the first call on a connection prepares it
//! (PostgreSQL: a named statement; SQLite: a cached `sqlite3_stmt`), every
//! later call only binds its parameters and runs it. BENCHMARKS.md
//! ("Prepared once per connection") measures what that buys.
//!
//! Each statement's text is written around its parameters, in the order
//! they are bound (`push_bind_param` writes the placeholder: `$n` on
//! PostgreSQL, `?` on SQLite), so every parameter appears exactly once.

/// Gives a statement type the traits diesel needs to run it and cache its
/// preparation by type: a static query id, and `RunQueryDsl`; with
/// `by_name`, also answers read by column name (`QueryableByName`).
macro_rules! prepared_statement {
    ($statement:ident, by_name) => {
        $crate::storage::prepared::prepared_statement!($statement);

        impl diesel::query_builder::Query for $statement<'_> {
            type SqlType = diesel::sql_types::Untyped;
        }
    };
    ($statement:ident) => {
        impl diesel::query_builder::QueryId for $statement<'_> {
            type QueryId = $statement<'static>;
            const HAS_STATIC_QUERY_ID: bool = true;
        }

        impl<Conn> diesel::RunQueryDsl<Conn> for $statement<'_> {}
    };
}

pub(crate) use prepared_statement;
