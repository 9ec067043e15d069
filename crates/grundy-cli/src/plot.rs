//! `grundy plot`: pictures of a value table, as SVG or PNG (plotters),
//! drawn from the library's [`PlotDescription`] (the web's `/api/plot`
//! draws the same; Python draws the same description with matplotlib).
//!
//! Three views:
//! - **scatter**: g(n) against n, P-positions (value 0) in red, rare
//!   values in orange and common ones in blue where the values split so,
//!   the pre-period marked by a vertical line and one period after it
//!   shaded, the value axis labelled at whole numbers; `log` puts the heaps
//!   on a logarithmic axis. Points that fall on the same pixel are drawn
//!   once, so 10^6 heaps make a picture of bounded size that still shows
//!   every occupied pixel;
//! - **table** (the "periodic table"): heaps in rows of one period, each
//!   cell coloured by its value (and labelled when there is room), so a
//!   periodic sequence shows as identical rows;
//! - **histogram**: the heaps of each value, a bar each, coloured by class.

use std::collections::HashSet;
use std::path::Path;

use grundy::ValueTable;
use grundy::report::{PlotDescription, ValueClass};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// The font text is drawn with, embedded so that no system fonts are
/// needed (DejaVu Sans Mono; licence in `assets/DejaVu-LICENSE.txt`).
const FONT: &[u8] = include_bytes!("../assets/DejaVuSansMono.ttf");

/// Colour of P-positions (value 0).
pub const P_COLOUR: RGBColor = RGBColor(0xD6, 0x27, 0x28);
/// Colour of rare values.
pub const RARE_COLOUR: RGBColor = RGBColor(0xFF, 0x7F, 0x0E);
/// Colour of common values (all others, without a rare/common split).
pub const POINT_COLOUR: RGBColor = RGBColor(0x1F, 0x77, 0xB4);

/// The colour of a class of values.
fn colour(class: ValueClass) -> RGBColor {
    match class {
        ValueClass::P => P_COLOUR,
        ValueClass::Rare => RARE_COLOUR,
        ValueClass::Common => POINT_COLOUR,
    }
}

/// A picture: the library's description and the values it describes.
pub struct Picture<'a> {
    /// What to draw.
    pub description: PlotDescription,
    /// `g(0..=N)`.
    pub values: &'a ValueTable,
}

impl<'a> Picture<'a> {
    /// The picture of `found`, whose values `0..=found.to` are `values`
    /// ([`grundy::session::Analysis::values_to_end`]), titled `title`.
    pub fn of(title: String, found: &grundy::session::Analysis, values: &'a ValueTable) -> Self {
        Picture {
            description: PlotDescription::new(title, found),
            values,
        }
    }

    /// `(pre-period, period)`, when a plain period is shaded.
    fn period(&self) -> Option<(usize, usize)> {
        self.description
            .period
            .as_ref()
            .map(|p| (p.preperiod, p.period))
    }

    /// The caption: the title, and the period with its support.
    fn caption(&self) -> String {
        match &self.description.period {
            Some(p) => format!(
                "{}  (period {}, pre-period {}: {})",
                self.description.title, p.period, p.preperiod, p.support
            ),
            None => self.description.title.clone(),
        }
    }
}

/// How to draw a picture.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Which view.
    pub view: View,
    /// Row length of the table view (default: the period, else 32).
    pub columns: Option<usize>,
    /// Heaps on a logarithmic axis (scatter).
    pub log: bool,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

/// What was drawn, for the report and the tests.
#[derive(Debug, Default)]
pub struct Drawn {
    /// Points (scatter, one per occupied pixel cell) or cells (table)
    /// drawn.
    pub points: usize,
    /// Of them, marks of P-positions (red).
    pub p_marks: usize,
    /// Of them, marks of rare values (orange).
    pub rare_marks: usize,
}

/// The views.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// g(n) against n.
    Scatter,
    /// Rows of one period.
    Table,
    /// Heaps of each value.
    Histogram,
}

/// Registers the embedded font (harmless when done twice).
fn font() -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "the embedded font is invalid".to_owned())
}

/// Draws `picture` as an SVG document in memory.
pub fn svg(picture: &Picture<'_>, style: Style) -> Result<(String, Drawn), String> {
    font()?;
    let mut text = String::new();
    let drawn = {
        let root = SVGBackend::with_string(&mut text, style.size).into_drawing_area();
        render(root, picture, style)?
    };
    Ok((text, drawn))
}

/// Draws `picture` into `path` (`.svg` or `.png`, by extension).
pub fn draw(path: &Path, picture: &Picture<'_>, style: Style) -> Result<Drawn, String> {
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
            let root = SVGBackend::new(path, style.size).into_drawing_area();
            render(root, picture, style)
        }
        Some("png") => {
            let root = BitMapBackend::new(path, style.size).into_drawing_area();
            render(root, picture, style)
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
    style: Style,
) -> Result<Drawn, String>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let last = picture.values.len().saturating_sub(1).max(1) as f64;
    let drawn = match style.view {
        // Heap 0 has no place on a logarithmic axis: it starts at 1.
        View::Scatter if style.log => scatter(&root, picture, (1f64..last).log_scale(), 1.0),
        View::Scatter => scatter(&root, picture, 0f64..last, 0.0),
        View::Table => table(&root, picture, style.columns),
        View::Histogram => histogram(&root, picture),
    }
    .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(drawn)
}

type Failed<DB> = DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>;

fn scatter<DB: DrawingBackend, X>(
    root: &DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
    heaps: X,
    first_heap: f64,
) -> Result<Drawn, Failed<DB>>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let values = picture.values;
    let description = &picture.description;
    let last = values.len().saturating_sub(1);
    let ticks = &description.value_ticks;
    let top = i64::from(ticks.last().copied().unwrap_or(1));
    let mut chart = ChartBuilder::on(root)
        .caption(picture.caption(), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(heaps, 0i64..top)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("heap n")
        .y_desc("g(n)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(ticks.len())
        .label_style(("sans-serif", 12))
        .draw()?;
    if let Some((pre, p)) = picture.period() {
        // One period after the pre-period, shaded; the pre-period a line.
        let (start, end) = ((pre as f64).max(first_heap), (pre + p).min(last) as f64);
        chart.draw_series(std::iter::once(Rectangle::new(
            [(start, 0), (end, top)],
            RGBColor(0xEE, 0xEE, 0xEE).filled(),
        )))?;
        chart.draw_series(LineSeries::new(
            [(start, 0), (start, top)],
            BLACK.stroke_width(1),
        ))?;
    }
    // One point per occupied pixel cell, P-positions first and then rare
    // values, so that a pixel holding one keeps its mark.
    let mut occupied = HashSet::new();
    let mut marks: [Vec<(f64, i64)>; 3] = Default::default();
    let classes = [ValueClass::P, ValueClass::Rare, ValueClass::Common];
    for (k, &class) in classes.iter().enumerate() {
        for (n, v) in values.iter().enumerate() {
            if description.class_of(v) != class {
                continue;
            }
            let point = (n as f64, i64::from(v.get()));
            if occupied.insert(chart.backend_coord(&point)) {
                marks[k].push(point);
            }
        }
    }
    let radius = if last < 2000 { 2 } else { 1 };
    for k in (0..3).rev() {
        let (class, points) = (classes[k], &marks[k]);
        let size = radius + u32::from(class == ValueClass::P);
        let label = match class {
            ValueClass::P => "P-positions (0)".to_owned(),
            ValueClass::Rare => {
                format!("rare values (mask {})", description.rare_mask.unwrap_or(0))
            }
            ValueClass::Common if description.rare_mask.is_some() => "common values".to_owned(),
            ValueClass::Common => "other values".to_owned(),
        };
        if points.is_empty() {
            continue;
        }
        chart
            .draw_series(
                points
                    .iter()
                    .map(|&p| Circle::new(p, size, colour(class).filled())),
            )?
            .label(label)
            .legend(move |(x, y)| Circle::new((x, y), 3, colour(class).filled()));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .draw()?;
    Ok(Drawn {
        points: marks.iter().map(Vec::len).sum(),
        p_marks: marks[0].len(),
        rare_marks: marks[1].len(),
    })
}

/// Bars of heaps by value, coloured by class.
fn histogram<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
) -> Result<Drawn, Failed<DB>> {
    let description = &picture.description;
    let most = description
        .values
        .iter()
        .map(|v| v.heaps)
        .max()
        .unwrap_or(1);
    let ticks = &description.value_ticks;
    let right = i64::from(ticks.last().copied().unwrap_or(1)) + 1;
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!("{}: heaps of each value", description.title),
            ("sans-serif", 18),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(72)
        .build_cartesian_2d(0i64..right, 0u64..most + most / 20 + 1)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("value")
        .y_desc("heaps")
        .x_labels(ticks.len())
        .label_style(("sans-serif", 12))
        .draw()?;
    let mut drawn = Drawn::default();
    for value in &description.values {
        let v = i64::from(value.value);
        let mut bar = Rectangle::new([(v, 0), (v + 1, value.heaps)], colour(value.class).filled());
        bar.set_margin(0, 0, 2, 2);
        chart.draw_series(std::iter::once(bar))?;
        drawn.points += 1;
        drawn.p_marks += usize::from(value.class == ValueClass::P);
        drawn.rare_marks += usize::from(value.class == ValueClass::Rare);
    }
    Ok(drawn)
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
        .or(picture.period().map(|(_, p)| p))
        .unwrap_or(32)
        .max(1);
    let rows = values.len().div_ceil(width).clamp(1, MAX_ROWS);
    let top = values.max().map_or(0, |m| m.get()).max(1);
    let caption = match &picture.description.period {
        Some(p) => format!(
            "{}: rows of {width} (period {}, pre-period {}: {})",
            picture.description.title, p.period, p.preperiod, p.support
        ),
        None => format!("{}: rows of {width}", picture.description.title),
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
        let class = picture.description.class_of(v);
        let colour = match class {
            ValueClass::P => P_COLOUR,
            ValueClass::Rare => RARE_COLOUR,
            ValueClass::Common => shade(t),
        };
        let ink = if class != ValueClass::Common || t > 0.5 {
            WHITE
        } else {
            BLACK
        };
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
        drawn.p_marks += usize::from(class == ValueClass::P);
        drawn.rare_marks += usize::from(class == ValueClass::Rare);
    }
    if let Some((pre, _)) = picture.period() {
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
