use pretty_assertions::assert_eq;

use super::SseDecoder;

fn decode_in_chunks(input: &[u8], chunk_size: usize) -> (Vec<String>, Option<String>) {
    let mut decoder = SseDecoder::default();
    let mut events = Vec::new();
    for chunk in input.chunks(chunk_size) {
        events.extend(decoder.push(chunk));
    }
    (events, decoder.finish())
}

#[test]
fn events_are_split_on_blank_lines_whatever_the_chunking() {
    let input = "event: response.created\ndata: {\"a\":1}\n\n: keep-alive comment\n\nevent: x\r\ndata: {\"b\":\"é\"}\r\n\r\ndata:first\ndata: second\rid: 7\r\r".as_bytes();
    let expected = vec![
        "{\"a\":1}".to_string(),
        "{\"b\":\"é\"}".to_string(),
        "first\nsecond".to_string(),
    ];
    for chunk_size in 1..=input.len() {
        assert_eq!(
            decode_in_chunks(input, chunk_size),
            (expected.clone(), None),
            "chunk size {chunk_size}"
        );
    }
}

#[test]
fn an_unterminated_last_event_is_delivered_at_the_end() {
    assert_eq!(
        decode_in_chunks(b"data: {\"a\":1}\n\ndata: {\"last\":true}", 5),
        (
            vec!["{\"a\":1}".to_string()],
            Some("{\"last\":true}".to_string())
        )
    );
    assert_eq!(
        decode_in_chunks(b"data: tail\n", 3),
        (Vec::new(), Some("tail".to_string()))
    );
}

#[test]
fn events_without_data_are_skipped() {
    assert_eq!(
        decode_in_chunks(b"event: ping\n\nretry: 10\n\n", 4),
        (Vec::new(), None)
    );
}
