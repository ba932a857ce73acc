//! Sequence numbers and per-event counters.

use std::time::Duration;

use mongodb::bson::{doc, Document};
use mongodb::options::{FindOneAndUpdateOptions, ReturnDocument};
use mongodb::{Collection, Database};

pub struct Counters {
    seqs: Collection<Document>,
    stats: Collection<Document>,
}

impl Counters {
    pub fn new(db: &Database) -> Self {
        Counters {
            seqs: db.collection("counters"),
            stats: db.collection("product_stats"),
        }
    }

    /// Next invoice number: one hot document per sequence.
    pub async fn next_invoice_number(&self) -> mongodb::error::Result<i64> {
        let opts = FindOneAndUpdateOptions::builder()
            .upsert(true)
            .return_document(ReturnDocument::After)
            .build();
        let doc = self
            .seqs
            .find_one_and_update(
                doc! { "_id": "invoice" },
                doc! { "$inc": { "seq": 1_i64 } }, // expect: counter-inc
            )
            .with_options(opts)
            .await?;
        Ok(doc.and_then(|d| d.get_i64("seq").ok()).unwrap_or(1))
    }

    pub async fn record_view(&self, sku: &str) -> mongodb::error::Result<()> {
        self.stats
            .update_one(
                doc! { "sku": sku },
                doc! {
                    "$inc": { "views": 1 }, // expect: counter-inc
                    "$set": { "last_viewed": mongodb::bson::DateTime::now() },
                },
            )
            .await?;
        Ok(())
    }

    pub async fn add_sales(&self, sku: &str, quantity: i32) -> mongodb::error::Result<()> {
        self.stats
            .update_one(
                doc! { "sku": sku },
                doc! { "$inc": { "sold": quantity } }, // ok: counter-inc — a computed amount
            )
            .await?;
        Ok(())
    }

    pub async fn reset_daily(&self) -> mongodb::error::Result<()> {
        self.stats
            .update_many(doc! {}, doc! { "$inc": { "days_listed": 1 } }) // ok: counter-inc — update_many, not one hot document
            .await?;
        Ok(())
    }

    /// Flushes buffered counters every minute.
    pub fn spawn_flusher(self: std::sync::Arc<Self>, buffered: std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(Duration::from_secs(60));
            loop {
                ticker.tick().await;
                let skus: Vec<String> = buffered.lock().unwrap().drain(..).collect();
                for sku in skus {
                    let _ = self
                        .stats
                        .update_one(doc! { "sku": &sku }, doc! { "$inc": { "flushes": 1 } }) // ok: counter-inc — periodic flusher loop
                        .await;
                }
            }
        });
    }
}
