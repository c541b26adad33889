//! The id and timestamp generator.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codex_core::IdGenerator;
use codex_core::ItemIdPrefix;
use codex_core::LiteIdNamespace;
use codex_core::SEEDED_CLOCK_STEP_MICROS;
use codex_core::create_time_of;
use codex_core::rollout_timestamp_of;
use jiff::Timestamp;
use pretty_assertions::assert_eq;
use uuid::Uuid;

const START: &str = "2026-11-30T07:02:00.601Z";

fn start() -> Timestamp {
    START.parse().expect("timestamp")
}

/// One id of every kind plus timestamps, in a fixed order.
fn sample(ids: &IdGenerator) -> Vec<String> {
    vec![
        ids.thread_id().to_string(),
        ids.turn_id().to_string(),
        ids.item_id(ItemIdPrefix::Message),
        ids.item_id(ItemIdPrefix::FunctionCall),
        ids.item_id(ItemIdPrefix::FunctionCallOutput),
        ids.uuid_v4().to_string(),
        ids.create_time().to_string(),
        ids.rollout_timestamp(),
    ]
}

#[test]
fn seeded_generator_output_is_fixed() {
    let ids = IdGenerator::seeded(7, start());
    assert_eq!(
        sample(&ids),
        [
            "01a22b42-b099-770d-b259-e4e1cb631c66",
            "01a22b42-b09a-722a-b1ba-804098e6cb29",
            "msg_01a22b42-b09b-7a21-9e6a-663bd37311aa",
            "fc_01a22b42-b09c-76d0-8233-a1c4cb77febe",
            "fco_01a22b42-b09d-7167-9099-7ac05e226953",
            "ebfab505-9be7-421a-ac63-dd28b74ebaf5",
            // The v4 id does not read the clock: five readings so far, 1 ms apart.
            "1796022120.606",
            "2026-11-30T07:02:00.607Z",
        ]
    );
}

#[test]
fn same_seed_same_ids_other_seed_other_ids() {
    let first = sample(&IdGenerator::seeded(11, start()));
    assert_eq!(first, sample(&IdGenerator::seeded(11, start())));
    let other = sample(&IdGenerator::seeded(12, start()));
    for (left, right) in first.iter().zip(&other).take(6) {
        assert_ne!(left, right);
    }
    // The clock does not depend on the seed.
    assert_eq!(first[6..], other[6..]);
}

#[test]
fn seeded_ids_are_uuid_v7_on_a_stepped_clock() {
    let ids = IdGenerator::seeded(3, start());
    let start_ms = start().as_millisecond();
    let step_ms = SEEDED_CLOCK_STEP_MICROS / 1_000;
    for reading in 0..5 {
        let id = ids.uuid_v7();
        assert_eq!(id.get_version_num(), 7);
        assert_eq!(id.get_variant(), uuid::Variant::RFC4122);
        let (seconds, nanos) = id.get_timestamp().expect("v7 timestamp").to_unix();
        let millis = i64::try_from(seconds).unwrap() * 1_000 + i64::from(nanos / 1_000_000);
        assert_eq!(millis, start_ms + reading * step_ms);
    }
    assert_eq!(ids.uuid_v4().get_version_num(), 4);
}

#[test]
fn item_ids_carry_their_prefix_and_a_uuid() {
    let ids = IdGenerator::seeded(1, start());
    for (prefix, text) in [
        (ItemIdPrefix::Message, "msg_"),
        (ItemIdPrefix::FunctionCall, "fc_"),
        (ItemIdPrefix::FunctionCallOutput, "fco_"),
        (ItemIdPrefix::AdditionalTools, "at_"),
    ] {
        let id = ids.item_id(prefix);
        let uuid = id.strip_prefix(text).expect("prefix");
        assert_eq!(Uuid::parse_str(uuid).expect("uuid").get_version_num(), 7);
    }
}

#[test]
fn timestamps_have_upstream_formats() {
    let instant: Timestamp = "2026-11-30T07:02:00.618387Z".parse().unwrap();
    assert_eq!(create_time_of(instant), 1_796_022_120.618_387);
    assert_eq!(rollout_timestamp_of(instant), "2026-11-30T07:02:00.618Z");
    let whole: Timestamp = "2026-11-30T07:02:00Z".parse().unwrap();
    assert_eq!(rollout_timestamp_of(whole), "2026-11-30T07:02:00.000Z");
}

#[test]
fn live_generator_uses_the_wall_clock_and_fresh_randomness() {
    let before = Timestamp::now();
    let ids = IdGenerator::live();
    let first = ids.uuid_v7();
    let second = ids.uuid_v7();
    assert_ne!(first, second);
    assert_eq!(first.get_version_num(), 7);
    let (seconds, _) = first.get_timestamp().expect("v7").to_unix();
    assert!(i64::try_from(seconds).unwrap() >= before.as_second());
    assert_ne!(IdGenerator::live().uuid_v4(), IdGenerator::live().uuid_v4());
}

#[test]
fn lite_ids_are_name_based_per_thread() {
    let thread = "01a22b42-b04e-7731-84f1-0d905b533980";
    let namespace = LiteIdNamespace::for_thread(thread);
    assert_eq!(namespace, LiteIdNamespace::for_thread(thread));
    assert_eq!(namespace.as_uuid().get_version_num(), 5);
    assert_eq!(
        namespace.additional_tools_id("[]"),
        LiteIdNamespace::for_thread(thread).additional_tools_id("[]")
    );
    assert_ne!(namespace.message_id("a"), namespace.message_id("b"));
    assert_ne!(
        namespace.message_id("a"),
        LiteIdNamespace::for_thread("another-thread").message_id("a")
    );
    let id = namespace.message_id("base instructions");
    let uuid = Uuid::parse_str(id.strip_prefix("msg_").unwrap()).unwrap();
    assert_eq!(
        uuid,
        Uuid::new_v5(&namespace.as_uuid(), b"base instructions")
    );
}
