// Package xmlutil is the XML layer shared by the robot-model importers
// (model/urdf, model/sdf, model/mjcf): a small element tree that keeps the
// line of every element and attribute, typed attribute readers whose errors
// name the file, line, element, attribute and value, and the bookkeeping that
// turns every element and attribute an importer did not read into a warning
// ("not supported, ignored") naming the same.
//
// The tree is built with encoding/xml's RawToken, so namespace prefixes are
// kept as written ("drake:gear_ratio") and start and end tags are matched
// here. Nesting deeper than MaxDepth and documents larger than MaxElements
// are errors, so that a hostile file cannot exhaust the stack or memory of
// the recursive importers.
package xmlutil
