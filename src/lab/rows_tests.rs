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
