//! `mapgen --size 10MB [--seed N] -o target/synth-10mb.t3d`: writes a synthetic UE1 map.

use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: mapgen --size SIZE [--seed N] [-o FILE]
  --size SIZE   approximate size: bytes, or with KB/MB/GB (1000) or KiB/MiB/GiB (1024)
  --seed N      generator seed (default 1); the same seed gives the same map
  -o FILE       output file (default: standard output)";

fn main() -> ExitCode {
    let mut size = None;
    let mut seed = 1u64;
    let mut output = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        let parsed = match arg.as_str() {
            "--size" => value("--size").and_then(|v| {
                unreal_mapgen::parse_size(&v)
                    .map(|s| size = Some(s))
                    .ok_or(format!("bad size `{v}`"))
            }),
            "--seed" => value("--seed")
                .and_then(|v| v.parse().map(|s| seed = s).map_err(|_| format!("bad seed `{v}`"))),
            "-o" | "--output" => value("-o").map(|v| output = Some(v)),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => Err(format!("unknown argument `{other}`")),
        };
        if let Err(message) = parsed {
            eprintln!("mapgen: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(size) = size else {
        eprintln!("mapgen: --size is required\n{USAGE}");
        return ExitCode::from(2);
    };
    let started = Instant::now();
    let map = unreal_mapgen::generate_map(size, seed);
    let elapsed = started.elapsed().as_secs_f64();
    let written = if let Some(path) = &output {
        std::fs::write(path, map.as_bytes())
    } else {
        std::io::Write::write_all(&mut std::io::stdout().lock(), map.as_bytes())
    };
    if let Err(err) = written {
        eprintln!("mapgen: writing {}: {err}", output.as_deref().unwrap_or("stdout"));
        return ExitCode::from(2);
    }
    eprintln!(
        "mapgen: {} bytes in {elapsed:.3} s ({:.0} MB/s), seed {seed}",
        map.len(),
        map.len() as f64 / 1e6 / elapsed.max(1e-9)
    );
    ExitCode::SUCCESS
}
