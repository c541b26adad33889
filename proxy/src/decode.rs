//! Undoing a compressed event stream for the recording while its bytes are relayed as they
//! came: the client decodes its own copy.

use std::io::Write as _;

/// A response body's `Content-Encoding`, with the decoder the recording feeds chunk by chunk.
pub enum StreamDecoder {
    Identity,
    Gzip(Box<flate2::write::GzDecoder<Vec<u8>>>),
    Zstd(Box<zstd::stream::write::Decoder<'static, Vec<u8>>>),
}

impl std::fmt::Debug for StreamDecoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StreamDecoder::Identity => "Identity",
            StreamDecoder::Gzip(_) => "Gzip",
            StreamDecoder::Zstd(_) => "Zstd",
        })
    }
}

impl StreamDecoder {
    /// The decoder for a `Content-Encoding` value (none: identity); `None` for an encoding this
    /// proxy cannot undo.
    pub fn for_encoding(encoding: Option<&str>) -> Option<Self> {
        match encoding
            .map(|value| value.trim().to_ascii_lowercase())
            .as_deref()
        {
            None | Some("identity") => Some(StreamDecoder::Identity),
            Some("gzip") => Some(StreamDecoder::Gzip(Box::new(
                flate2::write::GzDecoder::new(Vec::new()),
            ))),
            Some("zstd") => zstd::stream::write::Decoder::new(Vec::new())
                .ok()
                .map(|decoder| StreamDecoder::Zstd(Box::new(decoder))),
            Some(_) => None,
        }
    }

    /// The extension of the file the compressed bytes are recorded in; `None` for identity.
    pub fn wire_extension(&self) -> Option<&'static str> {
        match self {
            StreamDecoder::Identity => None,
            StreamDecoder::Gzip(_) => Some("gz"),
            StreamDecoder::Zstd(_) => Some("zst"),
        }
    }

    /// The decoded bytes `bytes` complete.
    pub fn decode(&mut self, bytes: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            StreamDecoder::Identity => Ok(bytes.to_vec()),
            StreamDecoder::Gzip(decoder) => {
                decoder.write_all(bytes)?;
                decoder.flush()?;
                Ok(std::mem::take(decoder.get_mut()))
            }
            StreamDecoder::Zstd(decoder) => {
                decoder.write_all(bytes)?;
                decoder.flush()?;
                Ok(std::mem::take(decoder.get_mut()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn compressed_streams_decode_chunk_by_chunk() {
        let text = b"data: {\"type\":\"response.completed\"}\n\n".repeat(50);
        let mut gzip = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gzip.write_all(&text).unwrap();
        let gzip = gzip.finish().unwrap();
        let zstd = zstd::stream::encode_all(&text[..], 3).unwrap();
        for (encoding, wire) in [("gzip", gzip), ("zstd", zstd)] {
            let mut decoder = StreamDecoder::for_encoding(Some(encoding)).unwrap();
            let mut decoded = Vec::new();
            for chunk in wire.chunks(7) {
                decoded.extend(decoder.decode(chunk).unwrap());
            }
            assert_eq!(decoded, text, "{encoding}");
        }
        assert!(StreamDecoder::for_encoding(Some("br")).is_none());
    }
}
