//! One module per output format, all rendering the same sorted `Analysis`.
pub mod concise;
