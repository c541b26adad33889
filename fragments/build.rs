//! Writes the o200k_base vocabulary as the crate reads it at run time: every regular token's
//! bytes, in rank order, each after its length in one byte. Loading tiktoken's own tables
//! takes a quarter of a second; the crate builds its rank table from these bytes in a few
//! milliseconds.

use std::error::Error;
use std::path::PathBuf;

/// Ranks below this are o200k_base's regular tokens; the special tokens come after them.
const REGULAR_TOKENS: u32 = 199_998;

fn main() -> Result<(), Box<dyn Error>> {
    println!("cargo::rerun-if-changed=build.rs");
    let tokenizer = tiktoken_rs::o200k_base()?;
    let mut vocabulary = Vec::with_capacity(2 * 1024 * 1024);
    for rank in 0..REGULAR_TOKENS {
        let bytes = tokenizer.decode_bytes(&[rank])?;
        let length = u8::try_from(bytes.len())
            .map_err(|_| format!("o200k token {rank} is {} bytes long", bytes.len()))?;
        if length == 0 {
            return Err(format!("o200k token {rank} is empty").into());
        }
        vocabulary.push(length);
        vocabulary.extend_from_slice(&bytes);
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("o200k_vocabulary.bin");
    std::fs::write(out, vocabulary)?;
    Ok(())
}
