/** `toolroute inspect`: what the model sees, per target, as terminal tables, JSON or an HTML page. */
export { inspectSpec, LARGEST_COUNT, type GroupReport, type InspectOptions, type InspectReport, type InspectResult, type ItemKind, type ItemReport, type Measure, type StateReport, type TargetReport } from './measure.js';
export { formatInspectText } from './text.js';
export { chartBars, renderInspectHtml, type ChartBar, type ChartSegment } from './html.js';
export { bytesEstimate, loadTokenCounter, type TokenCounter, type TokenMethod } from './tokens.js';
