/**
 * The d3 scales the console's charts use, standing in for `victory-vendor/d3-scale` in the build
 * (vite.config.ts `resolve.alias`). recharts imports that module as a namespace
 * (`import * as d3Scales from 'victory-vendor/d3-scale'`, recharts/es6/state/selectors/combiners/
 * combineConfiguredScale.js and combineRealScaleType.js) and picks a scale by name at run time, so the
 * bundler must keep every d3 scale: time and utc scales (with d3-time and d3-time-format), log, pow,
 * symlog, radial, quantile, quantize, threshold, sequential, diverging. That was some 8 kB gzip in the
 * dashboard's chart chunk for scales no chart asks for.
 *
 * What recharts asks for: an axis with `scale="auto"` (the default) is `band` (category axis of a bar
 * chart), `point` (category axis of a line or area chart) or `linear` (number axis); the Brush uses
 * `scalePoint`, the SunburstChart `scaleLinear`; `band` is built on `scaleOrdinal`. An axis given
 * `scale="<name>"` needs `scale<Name>` here: recharts falls back to `point` for a name it does not find,
 * so tests/unit/chartScales.test.ts fails when a chart in src/ names a scale this module lacks (add the
 * export, from d3-scale, and the test passes).
 */
export { scaleBand, scaleLinear, scaleOrdinal, scalePoint } from 'd3-scale';
