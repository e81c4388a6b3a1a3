//! `mapgen --size 10MB [--seed N] -o target/synth-10mb.t3d`: writes a synthetic UE1 map;
//! `mapgen --csg open-grid:4000 -o grid.t3d`: one of the brush lists that stress the CSG.

use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: mapgen (--size SIZE | --csg CASE:N) [--seed N] [-o FILE]
  --size SIZE   approximate size: bytes, or with KB/MB/GB (1000) or KiB/MiB/GiB (1024)
  --csg CASE:N  N brushes that stress the CSG: grid (rooms with walls between them),
                open-grid (rooms opening into one another), nested (cubes one inside the
                other), mixed (nested cubes with faces wound both ways)
  --seed N      generator seed (default 1); the same seed gives the same map
  -o FILE       output file (default: standard output)";

/// The map of a `--csg` case.
fn csg_case(spec: &str, seed: u64) -> Result<String, String> {
    let bad = || format!("bad CSG case `{spec}` (grid, open-grid, nested or mixed, then :N)");
    let (case, n) = spec.split_once(':').ok_or_else(bad)?;
    let n: usize = n.parse().map_err(|_| bad())?;
    match case {
        "grid" => Ok(unreal_mapgen::csg::room_grid(n, 64.0)),
        "open-grid" => Ok(unreal_mapgen::csg::room_grid(n, 0.0)),
        "nested" => Ok(unreal_mapgen::csg::nested_cubes(n)),
        "mixed" => Ok(unreal_mapgen::csg::nested_cubes_mixed_windings(n, seed)),
        _ => Err(bad()),
    }
}

fn main() -> ExitCode {
    let mut size = None;
    let mut csg = None;
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
            "--csg" => value("--csg").map(|v| csg = Some(v)),
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
    let started = Instant::now();
    let map = match (size, csg) {
        (Some(size), None) => unreal_mapgen::generate_map(size, seed),
        (None, Some(spec)) => match csg_case(&spec, seed) {
            Ok(map) => map,
            Err(message) => {
                eprintln!("mapgen: {message}\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("mapgen: one of --size and --csg is required\n{USAGE}");
            return ExitCode::from(2);
        }
    };
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
