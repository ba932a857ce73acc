//! Order endpoints (axum, mongodb 3.x fluent API).

use axum::extract::{Path, Query, State};
use axum::Json;
use futures::TryStreamExt;
use mongodb::bson::{doc, oid::ObjectId, DateTime};
use mongodb::Collection;
use serde::Deserialize;

use crate::db::Db;
use crate::error::ApiError;
use crate::models::{Order, OrderItem};

#[derive(Deserialize)]
pub struct Paging {
    page: u64,
    per_page: i64,
}

const FIRST_PAGE: u64 = 0;

pub async fn list_orders(
    State(db): State<Db>,
    Query(paging): Query<Paging>,
) -> Result<Json<Vec<Order>>, ApiError> {
    let skip = paging.page.saturating_sub(1) * paging.per_page as u64;
    let orders: Vec<Order> = db
        .orders
        .find(doc! { "status": { "$ne": "deleted" } })
        .sort(doc! { "created_at": -1 })
        .skip(skip) // expect: skip-paging
        .limit(paging.per_page)
        .await?
        .try_collect()
        .await?;
    Ok(Json(orders))
}

pub async fn first_orders(State(db): State<Db>) -> Result<Json<Vec<Order>>, ApiError> {
    let cursor = db
        .orders
        .find(doc! {})
        .skip(0) // ok: skip-paging — a literal skip
        .limit(20)
        .await?;
    Ok(Json(cursor.try_collect().await?))
}

pub async fn recent_orders(State(db): State<Db>) -> Result<Json<Vec<Order>>, ApiError> {
    let cursor = db
        .orders
        .find(doc! {})
        .skip(FIRST_PAGE) // ok: skip-paging — a named constant
        .limit(20)
        .await?;
    Ok(Json(cursor.try_collect().await?))
}

pub async fn set_status(
    State(db): State<Db>,
    Path(id): Path<ObjectId>,
    Json(status): Json<String>,
) -> Result<(), ApiError> {
    db.orders
        .update_one(
            doc! { "_id": id },
            doc! {
                "$set": { "status": &status },
                "$push": { "status_history": { "status": &status, "at": DateTime::now() } }, // expect: unbounded-push
            },
        )
        .await?;
    Ok(())
}

pub async fn add_note(orders: &Collection<Order>, id: ObjectId, note: String) -> Result<(), ApiError> {
    orders
        .update_one(
            doc! { "_id": id },
            doc! {
                "$push": { // ok: unbounded-push — capped with $each + $slice
                    "notes": { "$each": [note], "$slice": -50 }
                }
            },
        )
        .await?;
    Ok(())
}

/// Items go into buckets of at most 100 per document (bucket pattern).
pub async fn add_item(db: &Db, order_id: ObjectId, item: OrderItem) -> Result<(), ApiError> {
    let items = db.db.collection::<mongodb::bson::Document>("order_items");
    items
        .update_one(
            doc! { "order_id": order_id, "count": { "$lt": 100 } },
            doc! {
                "$push": { "items": mongodb::bson::to_bson(&item)? }, // ok: unbounded-push — bucket bounded by the filter
                "$inc": { "count": 1 }, // ok: counter-inc — the bucket's own count
            },
        )
        .upsert(true)
        .await?;
    Ok(())
}

pub async fn tag_order(db: &Db, id: ObjectId, tag: &str) -> Result<(), ApiError> {
    let mut update = doc! { "$set": { "updated_at": DateTime::now() } };
    update.insert("$addToSet", doc! { "tags": tag }); // expect: unbounded-push
    db.orders.update_one(doc! { "_id": id }, update).await?;
    Ok(())
}

pub async fn totals_by_customer(db: &Db) -> Result<Vec<mongodb::bson::Document>, ApiError> {
    let cursor = db
        .orders
        .aggregate(vec![
            doc! { "$match": { "status": "paid" } },
            doc! { "$group": {
                "_id": "$customer_id",
                "orders": { "$push": "$_id" }, // ok: unbounded-push — a $group accumulator, not an update
                "total": { "$sum": "$total" },
            } },
        ])
        .await?;
    Ok(cursor.try_collect().await?)
}
