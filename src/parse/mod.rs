#[derive(pest_derive::Parser)]
#[grammar = "grammar/fuda.pest"]
pub struct FudaParser;
