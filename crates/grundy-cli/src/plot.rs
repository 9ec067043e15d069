//! `grundy plot`: pictures of a value table, as SVG or PNG (plotters).
//!
//! Two views:
//! - **scatter**: g(n) against n, P-positions (value 0) in red, the
//!   pre-period marked by a vertical line and one period after it shaded.
//!   Points that fall on the same pixel are drawn once, so 10^6 heaps make
//!   a picture of bounded size that still shows every occupied pixel;
//! - **table** (the "periodic table"): heaps in rows of one period, each
//!   cell coloured by its value (and labelled when there is room), so a
//!   periodic sequence shows as identical rows.

use std::collections::HashSet;
use std::path::Path;

use grundy::ValueTable;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The font text is drawn with, embedded so that no system fonts are
/// needed (DejaVu Sans Mono; licence in `assets/DejaVu-LICENSE.txt`).
const FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Colour of P-positions (value 0).
pub const P_COLOUR: RGBColor = RGBColor(0xD6, 0x27, 0x28);
/// Colour of the other points.
pub const POINT_COLOUR: RGBColor = RGBColor(0x1F, 0x77, 0xB4);

/// What the picture shows besides the values.
pub struct Picture<'a> {
    /// The title.
    pub title: String,
    /// `g(0..=N)`.
    pub values: &'a ValueTable,
    /// `(pre-period, period)`, if the values show one.
    pub period: Option<(usize, usize)>,
    /// How the period is supported, for the caption: `theorem`,
    /// `closed-form`, `observed` or `none`, as the reports spell it.
    pub support: &'static str,
}

impl<'a> Picture<'a> {
    /// The picture of `found`, whose values `0..=found.to` are `values`
    /// ([`grundy::session::Analysis::values_to_end`]), titled `title`.
    pub fn of(title: String, found: &grundy::session::Analysis, values: &'a ValueTable) -> Self {
        Picture {
            title,
            values,
            period: found
                .periodicity
                .filter(|p| p.saltus == 0)
                .map(|p| (p.preperiod, p.period)),
            support: found.support_label(),
        }
    }
}

/// What was drawn, for the report and the tests.
#[derive(Debug, Default)]
pub struct Drawn {
    /// Points (scatter, one per occupied pixel cell) or cells (table)
    /// drawn.
    pub points: usize,
    /// Of them, marks of P-positions (red).
    pub p_marks: usize,
}

/// The two views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// g(n) against n.
    Scatter,
    /// Rows of one period.
    Table,
}

/// Registers the embedded font (harmless when done twice).
fn font() -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "the embedded font is invalid".to_owned())
}

/// Draws `picture` as an SVG document in memory.
pub fn svg(
    picture: &Picture<'_>,
    view: View,
    size: (u32, u32),
    columns: Option<usize>,
) -> Result<(String, Drawn), String> {
    font()?;
    let mut text = String::new();
    let drawn = {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        render(root, picture, view, columns)?
    };
    Ok((text, drawn))
}

/// Draws `picture` into `path` (`.svg` or `.png`, by extension).
pub fn draw(
    path: &Path,
    picture: &Picture<'_>,
    view: View,
    size: (u32, u32),
    columns: Option<usize>,
) -> Result<Drawn, String> {
    font()?;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if matches!(extension.as_deref(), Some("svg" | "png")) {
        // The file is opened here first, so that a path that cannot be
        // written is one plain line, not the drawing backend's debug text.
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    match extension.as_deref() {
        Some("svg") => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            render(root, picture, view, columns)
        }
        Some("png") => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            render(root, picture, view, columns)
        }
        _ => Err(format!(
            "{}: give a file ending in .svg or .png",
            path.display()
        )),
    }
}

fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
    view: View,
    columns: Option<usize>,
) -> Result<Drawn, String>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let drawn = match view {
        View::Scatter => scatter(&root, picture),
        View::Table => table(&root, picture, columns),
    }
    .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(drawn)
}

type Failed<DB> = DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>;

fn scatter<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
) -> Result<Drawn, Failed<DB>> {
    let values = picture.values;
    let last = values.len().saturating_sub(1);
    let top = values.max().map_or(0, |m| m.get()) + 1;
    let caption = match picture.period {
        Some((pre, p)) => format!(
            "{}  (period {p}, pre-period {pre}: {})",
            picture.title, picture.support
        ),
        None => picture.title.clone(),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0f64..(last.max(1)) as f64, 0f64..f64::from(top))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("heap n")
        .y_desc("g(n)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style(("sans-serif", 12))
        .draw()?;
    if let Some((pre, p)) = picture.period {
        // One period after the pre-period, shaded; the pre-period a line.
        let end = (pre + p).min(last) as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(pre as f64, 0.0), (end, f64::from(top))],
            RGBColor(0xEE, 0xEE, 0xEE).filled(),
        )))?;
        chart.draw_series(LineSeries::new(
            [(pre as f64, 0.0), (pre as f64, f64::from(top))],
            BLACK.stroke_width(1),
        ))?;
    }
    // One point per occupied pixel cell, P-positions first so that a cell
    // holding one keeps the red mark.
    let (width, height) = chart.plotting_area().dim_in_pixel();
    let cell = |n: usize, v: u32| {
        (
            n as u64 * u64::from(width) / (last as u64 + 1),
            u64::from(v) * u64::from(height) / u64::from(top),
        )
    };
    let mut occupied = HashSet::new();
    let mut p_points = Vec::new();
    let mut points = Vec::new();
    for pass_p in [true, false] {
        for (n, v) in values.iter().enumerate() {
            if v.is_zero() == pass_p && occupied.insert(cell(n, v.get())) {
                let point = (n as f64, f64::from(v.get()));
                if pass_p {
                    p_points.push(point);
                } else {
                    points.push(point);
                }
            }
        }
    }
    let radius = if last < 2000 { 2 } else { 1 };
    chart.draw_series(
        points
            .iter()
            .map(|&p| Circle::new(p, radius, POINT_COLOUR.filled())),
    )?;
    chart.draw_series(
        p_points
            .iter()
            .map(|&p| Circle::new(p, radius + 1, P_COLOUR.filled())),
    )?;
    Ok(Drawn {
        points: points.len() + p_points.len(),
        p_marks: p_points.len(),
    })
}

/// The most rows the table view draws.
const MAX_ROWS: usize = 400;

fn table<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
    columns: Option<usize>,
) -> Result<Drawn, Failed<DB>> {
    let values = picture.values;
    let width = columns
        .or(picture.period.map(|(_, p)| p))
        .unwrap_or(32)
        .max(1);
    let rows = values.len().div_ceil(width).clamp(1, MAX_ROWS);
    let top = values.max().map_or(0, |m| m.get()).max(1);
    let caption = match picture.period {
        Some((pre, p)) => format!(
            "{}: rows of {width} (period {p}, pre-period {pre}: {})",
            picture.title, picture.support
        ),
        None => format!("{}: rows of {width}", picture.title),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(28)
        .y_label_area_size(64)
        .build_cartesian_2d(0f64..width as f64, rows as f64..0f64)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("n mod row")
        .y_desc("row start")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|r| format!("{}", (*r as usize) * width))
        .label_style(("sans-serif", 12))
        .draw()?;
    let (pixels_wide, pixels_high) = chart.plotting_area().dim_in_pixel();
    let labelled = pixels_wide as usize / width >= 18 && pixels_high as usize / rows >= 14;
    let mut drawn = Drawn::default();
    for (n, v) in values.iter().enumerate().take(rows * width) {
        let (row, column) = (n / width, n % width);
        let t = f64::from(v.get()) / f64::from(top);
        let colour = if v.is_zero() { P_COLOUR } else { shade(t) };
        let ink = if v.is_zero() || t > 0.5 { WHITE } else { BLACK };
        let corner = (column as f64, row as f64);
        let far = (column as f64 + 1.0, row as f64 + 1.0);
        chart.draw_series(std::iter::once(Rectangle::new(
            [corner, far],
            colour.filled(),
        )))?;
        if labelled {
            chart.draw_series(std::iter::once(Text::new(
                v.get().to_string(),
                (column as f64 + 0.2, row as f64 + 0.2),
                ("sans-serif", 11).into_font().color(&ink),
            )))?;
        }
        drawn.points += 1;
        drawn.p_marks += usize::from(v.is_zero());
    }
    if let Some((pre, _)) = picture.period {
        // The pre-period ends here: a black bar before its first cell.
        let (row, column) = (pre / width, pre % width);
        if row < rows {
            chart.draw_series(LineSeries::new(
                [
                    (column as f64, row as f64),
                    (column as f64, row as f64 + 1.0),
                ],
                BLACK.stroke_width(3),
            ))?;
        }
    }
    Ok(drawn)
}

/// Light blue (small values) to dark blue (the largest), `t` in `0..=1`.
fn shade(t: f64) -> RGBColor {
    let mix =
        |light: u8, dark: u8| (f64::from(light) + (f64::from(dark) - f64::from(light)) * t) as u8;
    RGBColor(mix(0xC6, 0x08), mix(0xDB, 0x30), mix(0xEF, 0x6B))
}
