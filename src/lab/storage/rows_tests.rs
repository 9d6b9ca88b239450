//! Tests of the row types: their CSV and TOML forms.

use super::*;

#[test]
fn headers_come_from_the_types() {
    assert_eq!(
        String::from_utf8(csv_header::<GameRow>()).unwrap(),
        "game_id,pair_id,opening,black,white,black_discs,white_discs,result,margin,plies,passes,moves,seed,termination\n"
    );
}

#[test]
fn columns_are_the_header_and_rows_read_back_from_bytes() {
    let columns = csv_columns::<GameRow>();
    assert_eq!(
        columns.join(",") + "\n",
        String::from_utf8(csv_header::<GameRow>()).unwrap()
    );
    let row = GameRow {
        game_id: 3,
        black: "a, \"b\"".into(),
        result: "draw".into(),
        seed: u64::MAX,
        ..GameRow::default()
    };
    let mut bytes = csv_header::<GameRow>();
    row.write_csv(&mut bytes);
    let back: Vec<GameRow<'static>> = parse_csv(&bytes, Path::new("kept")).unwrap();
    assert_eq!(back, [row]);
    let cut = &bytes[..bytes.len() - 5];
    let refused = parse_csv::<GameRow<'static>>(cut, Path::new("kept")).unwrap_err();
    assert!(refused.to_string().starts_with("kept"), "{refused}");
}

#[test]
fn numbers_have_fixed_decimals_and_read_back() {
    let row = StandingRow {
        rank: 1,
        player: "a".into(),
        games: 2,
        wins: 1,
        draws: 0,
        losses: 1,
        score: Some(0.5),
        rating: Some(f64::INFINITY),
        rating_low: Some(f64::NAN),
        rating_high: None,
    };
    let bytes = csv_bytes(std::slice::from_ref(&row), Path::new("x.csv")).unwrap();
    let text = String::from_utf8(bytes).unwrap();
    assert_eq!(
        text,
        "rank,player,games,wins,draws,losses,score,rating,rating_low,rating_high\n1,a,2,1,0,1,0.5000,inf,,\n"
    );
    let back: StandingRow = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(back.rating, Some(f64::INFINITY));
    assert_eq!((back.rating_low, back.rating_high), (None, None));
}

#[test]
fn status_names() {
    let info = RunInfo {
        status: Status::SprtAcceptedH1,
        command: Some("reversi-lab run".into()),
        commit: None,
        host: Some("h".into()),
        ..RunInfo::starting(1, 2)
    };
    let text = toml::to_string(&info).unwrap();
    assert!(text.contains("status = \"sprt-accepted-h1\""), "{text}");
    assert_eq!(toml::from_str::<RunInfo>(&text).unwrap(), info);
}

/// Issue 52, item 36: small p-values keep their size (not `0.0000`), and no `-0.0`.
#[test]
fn p_values_keep_small_values_and_zero_has_no_sign() {
    #[derive(serde::Serialize)]
    struct Row {
        #[serde(serialize_with = "decimals::p")]
        p: Option<f64>,
        #[serde(serialize_with = "decimals::one")]
        change: Option<f64>,
    }
    let text = |p: f64, change: f64| {
        let mut out = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        out.serialize(Row {
            p: Some(p),
            change: Some(change),
        })
        .unwrap();
        String::from_utf8(out.into_inner().unwrap()).unwrap()
    };
    assert_eq!(text(3.1234e-7, -0.04), "3.12e-7,0.0\n");
    assert_eq!(text(0.0105, -1.26), "0.0105,-1.3\n");
    assert_eq!(text(0.0, 2.0), "0.0000,2.0\n");
}
