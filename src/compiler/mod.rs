//! The compiler: card and ruleset text in, checked IR out, as a pipeline of phases:
//! [`lex`] (tokens and the item pre-pass) → [`parse`] (pest, then the AST builder) → [`ast`] (the
//! syntax tree) → [`resolve`] (names, types and schemas checked; IR built). Each phase uses only
//! the ones before it, shared ground and the IR. Beside the pipeline, [`format`] lays a source
//! file out canonically (`fuda fmt`) on the token stream, checked against the parser.

pub mod ast;
pub mod format;
pub mod lex;
pub mod parse;
pub mod resolve;
pub mod script;
