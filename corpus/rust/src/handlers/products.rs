//! Product catalogue. This module still uses the mongodb 2.x API: options as the last argument.

use futures::stream::TryStreamExt;
use mongodb::bson::{doc, Document};
use mongodb::options::{AggregateOptions, FindOptions, IndexOptions, UpdateOptions};
use mongodb::{Collection, Database, IndexModel};

use crate::error::ApiError;
use crate::models::Product;

pub struct ProductRepo {
    products: Collection<Product>,
    reviews: Collection<Document>,
}

impl ProductRepo {
    pub fn new(db: &Database) -> Self {
        let reviews = db.collection::<Document>("reviews");
        Self {
            products: db.collection("products"),
            reviews,
        }
    }

    pub async fn ensure_indexes(&self) -> Result<(), ApiError> {
        let sku = IndexModel::builder()
            .keys(doc! { "sku": 1 })
            .options(IndexOptions::builder().unique(true).build())
            .build();
        self.products.create_index(sku, None).await?;
        self.products
            .create_indexes(
                vec![
                    IndexModel::builder().keys(doc! { "category": 1, "price": -1 }).build(),
                    IndexModel::builder().keys(doc! { "category": 1 }).build(),  // expect: redundant-index
                ],
                None,
            )
            .await?;
        let by_product = IndexModel::builder()
            .keys(doc! { "sku": 1, "created_at": -1 })
            .build();
        self.reviews.create_index(by_product, None).await?;
        Ok(())
    }

    /// Products of the reviews written since `since`, fetched one by one.
    pub async fn recently_reviewed(&self, since: mongodb::bson::DateTime) -> Result<Vec<Product>, ApiError> {
        let mut cursor = self
            .reviews
            .find(doc! { "created_at": { "$gte": since } }, None) // expect: unindexed-query
            .await?;
        let mut out = Vec::new();
        while let Some(review) = cursor.try_next().await? {
            let sku = review.get_str("sku").unwrap_or_default();
            if let Some(p) = self.products.find_one(doc! { "sku": sku }, None).await? { // expect: query-in-loop
                out.push(p);
            }
        }
        Ok(out)
    }

    pub async fn page(&self, category: &str, page: u64) -> Result<Vec<Product>, ApiError> {
        let skip = page * 20;
        let opts = FindOptions::builder()
            .sort(doc! { "price": 1 })
            .skip(skip) // expect: skip-paging
            .limit(20)
            .build();
        let cursor = self.products.find(doc! { "category": category }, opts).await?;
        Ok(cursor.try_collect().await?)
    }

    pub async fn search(&self, text: &str, offset: u64) -> Result<Vec<Product>, ApiError> {
        let cursor = self
            .products
            .find(
                doc! { "$text": { "$search": text } },
                FindOptions::builder().skip(offset).limit(50).build(), // expect: skip-paging
            )
            .await?;
        Ok(cursor.try_collect().await?)
    }

    pub async fn featured(&self) -> Result<Vec<Product>, ApiError> {
        let opts = FindOptions::builder().skip(Some(0)).limit(10).build(); // ok: skip-paging — literal skip
        let cursor = self.products.find(doc! { "featured": true }, opts).await?;  // expect: unindexed-query
        Ok(cursor.try_collect().await?)
    }

    pub async fn all(&self, offset: u64) -> Result<Vec<Product>, ApiError> {
        let options = FindOptions {
            skip: Some(offset), // expect: skip-paging
            limit: Some(100),
            ..Default::default()
        };
        let cursor = self.products.find(None, options).await?;
        Ok(cursor.try_collect().await?)
    }

    pub async fn count(&self, category: &str) -> Result<u64, ApiError> {
        Ok(self
            .products
            .count_documents(doc! { "category": category }, None)
            .await?)
    }

    pub async fn add_viewer(&self, sku: &str, user_id: &str) -> Result<(), ApiError> {
        self.products
            .update_one(
                doc! { "sku": sku },
                doc! { "$addToSet": { "viewed_by": user_id } }, // expect: unbounded-push
                None,
            )
            .await?;
        Ok(())
    }

    pub async fn add_review(&self, sku: &str, review: Document) -> Result<(), ApiError> {
        self.reviews.insert_one(review.clone(), None).await?;
        let opts = UpdateOptions::builder().upsert(true).build();
        self.products
            .update_one(
                doc! { "sku": sku, "recent_reviews.9": { "$exists": false } },
                doc! { "$push": { "recent_reviews": review } }, // ok: unbounded-push — the filter caps the array at 10
                opts,
            )
            .await?;
        Ok(())
    }

    pub async fn with_reviews(&self, page_offset: i64) -> Result<Vec<Document>, ApiError> {
        let mut pipeline = vec![doc! { "$match": { "active": true } }];
        pipeline.push(doc! {
            "$lookup": { "from": "reviews", "localField": "sku", "foreignField": "sku", "as": "reviews" } // ok: lookup-unindexed-foreign-field — { sku: 1, created_at: -1 }
        });
        pipeline.push(doc! {
            "$lookup": { "from": "brands", "localField": "brand_id", "foreignField": "_id", "as": "brand" } // expect: lookup-chain
        });
        pipeline.push(doc! { "$skip": page_offset }); // expect: skip-paging
        pipeline.push(doc! { "$limit": 20 });
        let opts = AggregateOptions::builder().allow_disk_use(true).build();
        let cursor = self.products.aggregate(pipeline, opts).await?;  // expect: unindexed-query
        Ok(cursor.try_collect().await?)
    }

    pub async fn price_list(&self) -> Result<Vec<Document>, ApiError> {
        let cursor = self
            .products
            .aggregate(
                [
                    doc! { "$lookup": { "from": "brands", "localField": "brand_id", "foreignField": "_id", "as": "brand" } }, // ok: lookup-chain — a single $lookup
                    doc! { "$skip": 0 }, // ok: skip-paging — literal
                ],
                None,
            )
            .await?;
        Ok(cursor.try_collect().await?)
    }
}
