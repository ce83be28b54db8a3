//! Arbitrary bytes through the path `fuda check <file>` takes for a lone file:
//! decode, lex, parse, resolve, then render the diagnostics the CLI prints.
//! Any panic, stack overflow or hang is a bug.
#![no_main]

use fuda::base::diagnostic::{self, RenderOptions};
use fuda::packs::{PackSource, Session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bytes = data.to_vec();
    // The same stack as the CLI's compiler thread (`src/main.rs`).
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || {
        let path = "fuzz.fuda".to_string();
        let mut s = Session::new();
        s.compile_source(PackSource { dir: None, manifest_path: path.clone(), manifest_text: None, files: vec![(path, bytes)], unreadable: Vec::new() });
        s.finish();
        for d in s.diags.iter().take(50) {
            let _ = diagnostic::render(d, &s.sources, RenderOptions::plain());
        }
    });
    if let Err(panic) = worker.expect("spawn").join() {
        std::panic::resume_unwind(panic);
    }
});
