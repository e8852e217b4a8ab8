//! `board.png`: the board picture rasterized on the server
//! (docs/pictures-and-records.md), for clients that cannot show SVG.
//!
//! resvg draws the SVG of [`super::picture`]; the only font is DejaVu Sans,
//! carried in the binary (the `dejavu` crate), which the picture's generic
//! `sans-serif` family maps to. No system font or library is used.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// Smallest and largest `scale` of a PNG (1: one pixel per picture unit).
pub const SCALES: std::ops::RangeInclusive<f32> = 0.25..=4.0;

/// Why a picture could not be rasterized (a server fault: the SVG is ours).
#[derive(Debug, thiserror::Error)]
#[error("the board picture could not be rasterized: {0}")]
pub struct RasterError(String);

/// The font database, built once: DejaVu Sans as every generic family.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(dejavu::sans::regular().to_vec());
            db.load_font_data(dejavu::sans::bold().to_vec());
            db.set_sans_serif_family("DejaVu Sans");
            db.set_serif_family("DejaVu Sans");
            db.set_monospace_family("DejaVu Sans");
            Arc::new(db)
        })
        .clone()
}

/// `svg` as a PNG, `scale` pixels per picture unit (within [`SCALES`]).
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, RasterError> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| RasterError(e.to_string()))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| RasterError(format!("scale {scale}")))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| RasterError(format!("size {size:?}")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| RasterError(e.to_string()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const SQUARE: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40" height="20"><rect width="20" height="20" fill="black"/><text x="22" y="16" font-family="sans-serif" font-size="16">7</text></svg>"#;

    #[test]
    fn draws_shapes_and_text_at_the_asked_scale() {
        let png = png(SQUARE, 2.0).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        assert_eq!((be(16), be(20)), (80, 40));
        // The text was drawn: the right half is not blank.
        let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
        let dark = |x0: u32, x1: u32| {
            (x0..x1)
                .flat_map(|x| (0..40).map(move |y| (x, y)))
                .filter(|&(x, y)| decoded.pixel(x, y).is_some_and(|p| p.red() < 128))
                .count()
        };
        assert!(dark(0, 40) > 1500, "the black square");
        assert!(dark(40, 80) > 20, "the digit (a font was found)");
    }
}
