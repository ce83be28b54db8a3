#[test]
fn smoke() {
    let src = std::fs::read_to_string("/tmp/g/sample.fuda").unwrap();
    let mut d = Vec::new();
    let items = fuda::parse::parse_file(&src, fuda::source::FileId(0), &mut d);
    println!("{:#?}", d);
    println!("{}", format!("{:?}", items).len());
    assert!(d.is_empty());
}
