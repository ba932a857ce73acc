//! Shop API: axum + mongodb.

mod counters;
mod db;
mod error;
mod handlers;
mod jobs;
mod models;
mod reports_sql;

use axum::routing::{get, post};
use axum::Router;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let settings = db::Settings {
        mongo_uri: std::env::var("MONGO_URI")?,
        database: "shop".into(),
        audit_collection: std::env::var("AUDIT_COLLECTION")?,
    };
    let state = db::Db::connect(&settings).await?;
    let app = Router::new()
        .route("/orders", get(handlers::orders::list_orders))
        .route("/orders/first", get(handlers::orders::first_orders))
        .route("/orders/:id/status", post(handlers::orders::set_status))
        .with_state(state);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await?;
    axum::serve(listener, app).await?;
    Ok(())
}
