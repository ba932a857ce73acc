//! mongolint: finds MongoDB schema-design anti-patterns in application source code.

pub mod analysis;
pub mod diagnostic;
pub mod ir;
pub mod report;
pub mod rules;
pub mod source;
