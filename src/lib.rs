//! mongolint: finds MongoDB schema-design anti-patterns in application source code.

pub mod analysis;
pub mod cli;
pub mod diagnostic;
pub mod discover;
pub mod ir;
pub mod lang;
pub mod link;
pub mod model;
pub mod report;
pub mod rules;
pub mod source;
