//! Shared ground for every layer: source files with their spans and line index (`source`), and
//! the one diagnostic type every phase reports with (`diagnostic`). It uses no other module.

pub mod diagnostic;
pub mod source;
