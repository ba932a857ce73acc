//! User profile endpoints (mongodb 3.x).

use std::collections::HashMap;

use mongodb::bson::{doc, oid::ObjectId};
use mongodb::Collection;

use crate::db::Db;
use crate::error::ApiError;
use crate::models::User;

pub async fn follow(users: &Collection<User>, me: ObjectId, other: ObjectId) -> Result<(), ApiError> {
    users
        .update_one(
            doc! { "_id": other },
            doc! { "$addToSet": { "followers": me } }, // expect: unbounded-push
        )
        .await?;
    Ok(())
}

pub async fn record_logins(db: &Db, id: ObjectId, at: Vec<mongodb::bson::DateTime>) -> Result<(), ApiError> {
    db.users
        .find_one_and_update(
            doc! { "_id": id },
            doc! {
                "$push": { "logins": { "$each": at } }, // expect: unbounded-push
            },
        )
        .await?;
    Ok(())
}

pub async fn add_badge(db: &Db, id: ObjectId, badge: String) -> Result<(), ApiError> {
    db.users
        .update_one(
            doc! {
                "_id": id,
                "$expr": { "$lt": [{ "$size": "$badges" }, 20] },
            },
            doc! { "$push": { "badges": badge } }, // ok: unbounded-push — $expr/$size bounds the array
        )
        .await?;
    Ok(())
}

pub async fn set_address_pair(db: &Db, id: ObjectId, addr: String) -> Result<(), ApiError> {
    db.users
        .update_one(
            doc! { "_id": id, "addresses": { "$size": 1 } },
            doc! { "$push": { "addresses": addr } }, // ok: unbounded-push — the filter pins the array size
        )
        .await?;
    Ok(())
}

/// In-memory paging of an already loaded list: Iterator::skip, Vec::push, HashMap::insert.
pub fn page_of(names: &[String], page: usize, per_page: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = HashMap::new();
    for name in names.iter().skip(page * per_page).take(per_page) { // ok: skip-paging — Iterator::skip, not MongoDB
        out.push(name.clone());
        seen.insert(name.clone(), true);
    }
    let first = names.iter().find(|n| n.starts_with('a'));
    if let Some(f) = first {
        out.push(f.clone());
    }
    out
}

pub async fn housekeeping(db: &mongodb::Database, id: ObjectId, device: String) -> Result<(), ApiError> {
    let sessions = db.collection_with_options::<mongodb::bson::Document>(
        "sessions",
        mongodb::options::CollectionOptions::builder().build(),
    );
    let update = mongodb::bson::bson!({
        "$push": { "devices": device }, // expect: unbounded-push
    });
    sessions
        .update_one(doc! { "user_id": id }, update.as_document().unwrap().clone())
        .await?;
    let n = sessions.estimated_document_count().await?;
    let kinds = sessions.distinct("kind", doc! { "user_id": id }).await?;
    sessions.delete_many(doc! { "expires_at": { "$lt": mongodb::bson::DateTime::now() } }).await?;
    sessions
        .replace_one(doc! { "_id": id }, doc! { "user_id": id, "kinds": kinds, "n": n as i64 })
        .await?;
    Ok(())
}
