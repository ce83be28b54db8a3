//! The sandbox pack scripts (`.rhai` files) are compiled and run in: one set of settings for the
//! checker, which compiles each script to report its syntax errors and list its functions, and
//! for the engine, which runs them (docs/language.md, "Scripts").
//!
//! A script is untrusted: it starts from a raw rhai engine (no `import`, no file, network or
//! clock, integers only: the crate is built with `no_module`, `no_time`, `no_float`,
//! `only_i64`), `eval` and function pointers (`Fn`, `call`, `curry`) are disabled, `print` and `debug` write nowhere, and every size and count
//! a script can grow is bounded by the limits below.

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicStringPackage, LogicPackage,
    Package,
};

/// The most operations one run of a script may take (an endless loop stops here).
pub const MAX_OPERATIONS: u64 = 200_000;
/// The deepest nesting of function calls in a script (kept low: a deeper native stack could
/// overflow, which no one can catch).
pub const MAX_CALL_LEVELS: usize = 24;
/// The deepest expression (and, second, the deepest expression inside a function body).
pub const MAX_EXPR_DEPTHS: (usize, usize) = (48, 32);
/// The longest string a script may build, in bytes.
pub const MAX_STRING_SIZE: usize = 4_096;
/// The most items of an array a script may build.
pub const MAX_ARRAY_SIZE: usize = 4_096;
/// The most entries of an object map a script may build.
pub const MAX_MAP_SIZE: usize = 256;

/// A rhai engine with the sandbox's settings and the language's basic packages (integer
/// arithmetic, comparisons, strings, arrays, ranges for `for` loops), and nothing else: the
/// caller registers the host functions it offers.
pub fn sandbox() -> rhai::Engine {
    let mut e = rhai::Engine::new_raw();
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    e.disable_symbol("eval");
    // no function pointers: a script calls a function only by writing its name
    e.disable_symbol("Fn");
    e.disable_symbol("call");
    e.disable_symbol("curry");
    e.set_max_operations(MAX_OPERATIONS);
    e.set_max_call_levels(MAX_CALL_LEVELS);
    e.set_max_expr_depths(MAX_EXPR_DEPTHS.0, MAX_EXPR_DEPTHS.1);
    e.set_max_string_size(MAX_STRING_SIZE);
    e.set_max_array_size(MAX_ARRAY_SIZE);
    e.set_max_map_size(MAX_MAP_SIZE);
    e.register_global_module(ArithmeticPackage::new().as_shared_module());
    e.register_global_module(LogicPackage::new().as_shared_module());
    e.register_global_module(BasicStringPackage::new().as_shared_module());
    e.register_global_module(BasicArrayPackage::new().as_shared_module());
    e.register_global_module(BasicIteratorPackage::new().as_shared_module());
    e
}

/// The byte offset of a 1-based line and column (columns count characters) in `text`, clamped
/// to the text.
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i.saturating_add(1) == line {
            let col = column.saturating_sub(1);
            return start + l.char_indices().nth(col).map_or(l.len(), |(b, _)| b);
        }
        start += l.len();
    }
    text.len()
}
