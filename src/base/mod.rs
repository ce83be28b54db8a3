//! Shared ground for every layer: source files with their spans and line index (`source`), and
//! the one diagnostic type every phase reports with (`diagnostic`), the sandbox pack scripts run in
//! (`script`), and the allocator of the binary and the engine bench (`alloc`). It uses no other
//! module.

pub mod alloc;
pub mod diagnostic;
pub mod script;
pub mod source;
