//! WAV (RIFF WAVE) headers: format tag, channels, rate, bits and duration. Sample data is
//! located, never copied.

use crate::error::Result;
use crate::reader::Reader;

#[derive(Debug, Clone, PartialEq)]
pub struct Wav {
    /// 1 = PCM, 2 = MS ADPCM, 3 = IEEE float, 0xFFFE = extensible...
    pub format_tag: u16,
    pub channels: u16,
    pub sample_rate: u32,
    pub byte_rate: u32,
    pub block_align: u16,
    pub bits_per_sample: u16,
    pub data_offset: usize,
    pub data_size: usize,
    /// Seconds of audio (`data_size / byte_rate`).
    pub duration: f64,
}

impl Wav {
    pub fn is_wav(data: &[u8]) -> bool {
        data.len() >= 12 && &data[0..4] == b"RIFF" && &data[8..12] == b"WAVE"
    }

    pub fn parse(data: &[u8]) -> Result<Self> {
        let mut r = Reader::new(data, 0, "WAV header");
        let riff = r.array::<4>("RIFF signature")?;
        if &riff != b"RIFF" {
            return Err(
                r.error_at(0, format!("\"RIFF\", found {:?}", String::from_utf8_lossy(&riff)))
            );
        }
        r.u32("RIFF size")?;
        let wave = r.array::<4>("WAVE signature")?;
        if &wave != b"WAVE" {
            return Err(
                r.error_at(8, format!("\"WAVE\", found {:?}", String::from_utf8_lossy(&wave)))
            );
        }
        let mut fmt: Option<(u16, u16, u32, u32, u16, u16)> = None;
        loop {
            let chunk_pos = r.pos();
            r.set_structure("WAV chunk");
            if r.remaining() < 8 {
                return Err(
                    r.error("a \"data\" chunk after the \"fmt \" chunk, the file ends first")
                );
            }
            let id = r.array::<4>("chunk id")?;
            let size = r.u32("chunk size")? as usize;
            match &id {
                b"fmt " => {
                    r.set_structure("WAV fmt chunk");
                    if size < 16 || size > r.remaining() {
                        return Err(r.error_at(
                            chunk_pos + 4,
                            format!("a fmt chunk of 16 or more bytes inside the file, found size {size}"),
                        ));
                    }
                    let start = r.pos();
                    let tag = r.u16("format tag")?;
                    let channels = r.u16("channels")?;
                    let rate = r.u32("sample rate")?;
                    let byte_rate = r.u32("byte rate")?;
                    let block_align = r.u16("block align")?;
                    let bits = r.u16("bits per sample")?;
                    r.seek("end of fmt chunk", start + size)?;
                    fmt = Some((tag, channels, rate, byte_rate, block_align, bits));
                }
                b"data" => {
                    r.set_structure("WAV data chunk");
                    let Some((
                        format_tag,
                        channels,
                        sample_rate,
                        byte_rate,
                        block_align,
                        bits_per_sample,
                    )) = fmt
                    else {
                        return Err(
                            r.error_at(chunk_pos, "a \"fmt \" chunk before the \"data\" chunk")
                        );
                    };
                    if size > r.remaining() {
                        return Err(r.error_at(
                            chunk_pos + 4,
                            format!(
                                "{size} bytes of sample data, the file has {} left",
                                r.remaining()
                            ),
                        ));
                    }
                    if channels == 0 || sample_rate == 0 {
                        return Err(r.error_at(
                            chunk_pos,
                            format!("a non-zero channel count and sample rate, found {channels} and {sample_rate}"),
                        ));
                    }
                    let duration =
                        if byte_rate > 0 { size as f64 / f64::from(byte_rate) } else { 0.0 };
                    return Ok(Self {
                        format_tag,
                        channels,
                        sample_rate,
                        byte_rate,
                        block_align,
                        bits_per_sample,
                        data_offset: r.pos(),
                        data_size: size,
                        duration,
                    });
                }
                _ => {
                    // Unknown chunks (LIST, fact, cue...) are skipped; RIFF pads chunks to even sizes.
                    let padded = size + (size & 1);
                    if padded > r.remaining() {
                        return Err(r.error_at(
                            chunk_pos + 4,
                            format!(
                                "chunk {:?} of {size} bytes inside the file, {} left",
                                String::from_utf8_lossy(&id),
                                r.remaining()
                            ),
                        ));
                    }
                    r.skip("chunk", padded)?;
                }
            }
        }
    }

    pub fn format_name(&self) -> &'static str {
        match self.format_tag {
            1 => "PCM",
            2 => "MS ADPCM",
            3 => "IEEE float",
            6 => "A-law",
            7 => "mu-law",
            0x11 => "IMA ADPCM",
            0x55 => "MP3",
            0xFFFE => "extensible",
            _ => "other",
        }
    }
}
