//! mongolint: finds MongoDB schema-design anti-patterns in application source code.

pub mod allocator;
pub mod analysis;
pub mod baseline;
pub mod catalogue;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod discover;
pub mod ir;
pub mod lang;
pub mod link;
pub mod model;
mod parallel;
pub mod policy;
pub mod report;
pub mod rules;
pub mod source;
pub mod suppress;
pub mod workspace;
