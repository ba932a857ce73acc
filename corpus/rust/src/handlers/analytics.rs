//! Reporting endpoints: aggregations over orders and events (mongodb 3.x).

use futures::TryStreamExt;
use mongodb::bson::{doc, Document};
use mongodb::options::{UpdateOneModel, WriteModel};
use mongodb::{Client, Database};

use crate::error::ApiError;

pub async fn order_report(db: &Database, skip: u64) -> Result<Vec<Document>, ApiError> {
    let orders = db.collection::<Document>("orders");
    let cursor = orders
        .aggregate(vec![
            doc! { "$match": { "status": "paid" } },
            doc! { "$lookup": { "from": "customers", "localField": "customer_id", "foreignField": "_id", "as": "customer" } },
            doc! { "$unwind": "$customer" },
            doc! { "$lookup": { "from": "products", "localField": "items.sku", "foreignField": "sku", "as": "products" } }, // expect: lookup-chain
            doc! { "$skip": skip as i64 }, // expect: skip-paging
            doc! { "$limit": 50 },
        ])
        .await?;
    Ok(cursor.try_collect().await?)
}

pub async fn customer_timeline(db: &Database) -> Result<Vec<Document>, ApiError> {
    let customers = db.collection::<Document>("customers");
    let stages = [
        doc! {
            "$lookup": {
                "from": "orders",
                "let": { "cid": "$_id" },
                "pipeline": [
                    { "$match": { "$expr": { "$eq": ["$customer_id", "$$cid"] } } },
                    { "$lookup": { "from": "shipments", "localField": "_id", "foreignField": "order_id", "as": "shipments" } }, // expect: lookup-chain
                ],
                "as": "orders",
            }
        },
    ];
    let cursor = customers.aggregate(stages).await?;
    Ok(cursor.try_collect().await?)
}

pub async fn dashboard(db: &Database) -> Result<Vec<Document>, ApiError> {
    let cursor = db
        .collection::<Document>("orders")
        .aggregate(vec![doc! {
            "$facet": {
                "by_status": [{ "$group": { "_id": "$status", "n": { "$sum": 1 } } }],
                "top_products": [
                    { "$unwind": "$items" },
                    { "$lookup": { "from": "products", "localField": "items.sku", "foreignField": "sku", "as": "p" } }, // ok: lookup-chain — one $lookup in the whole pipeline
                ],
            }
        }])
        .await?;
    Ok(cursor.try_collect().await?)
}

/// 3.x client-level bulk write of per-product view lists.
pub async fn flush_views(client: &Client, views: Vec<(String, String)>) -> Result<(), ApiError> {
    let products = client.database("shop").collection::<Document>("products");
    let mut models: Vec<WriteModel> = Vec::new();
    for (sku, user) in views {
        models.push(
            UpdateOneModel::builder()
                .namespace(products.namespace())
                .filter(doc! { "sku": sku })
                .update(doc! { "$push": { "viewers": user } }) // expect: unbounded-push
                .build()
                .into(),
        );
    }
    client.bulk_write(models).await?;
    Ok(())
}
