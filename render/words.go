package render

import (
	"strconv"
	"strings"
)

// Words say AltText's and Describe's sentences in one language: Say(id,
// args) returns the message id (one of the "alt." ids below) with its
// placeholders filled from args, by name: Count (an int, which also
// chooses the plural form), other ints, and strings already written. The
// bot passes its catalogue's language (bot.AltWords); render itself knows
// no catalogue, so that it imports only the engine. A nil Words is
// English. Words must not keep args: render reuses the map.
//
// The messages, with their English:
//
//	alt.size            Connect {{.Connect}} on {{.Rows}} rows by {{.Cols}} columns.
//	alt.boardEmpty      The board is empty.
//	alt.discs           Discs from the bottom up: {{.Columns}}.
//	alt.column          column {{.Column}}: {{.Discs}}
//	alt.columnFull      column {{.Column}}: {{.Discs}} (full)
//	alt.columnEmpty     column {{.Column}}: empty
//	alt.columnsEmptyTwo columns {{.From}} and {{.To}}: empty
//	alt.columnsEmpty    columns {{.From}} to {{.To}}: empty
//	alt.run             {{.Count}} {{.Colour}} (a run of 2 or more discs)
//	alt.noMoves         No moves yet.
//	alt.moves           {{.Count}} move(s) played; last: {{.Who}} in column {{.Column}}.
//	alt.toMove          {{.Who}} to move.
//	alt.won             {{.Who}} won by connecting {{.Connect}}.
//	alt.wonLines        {{.Who}} won by connecting {{.Connect}}: {{.Lines}}.
//	alt.lineRow         in row {{.Row}}, columns {{.From}} to {{.To}}
//	alt.lineColumn      in column {{.Column}}, rows {{.From}} to {{.To}}
//	alt.lineDiagonal    diagonally from column {{.FromColumn}} row {{.FromRow}} to column {{.ToColumn}} row {{.ToRow}}
//	alt.and             {{.A}} and {{.B}}
//	alt.draw            The board is full: a draw.
//	alt.othersLeft      The others left; {{.Who}} won.
//	alt.resigned        {{.Loser}} resigned; {{.Who}} won.
//	alt.named           {{.Name}} ({{.Colour}})
//	alt.colour.<c>      c, for red, yellow, green, blue, orange and pink
//
// Sentences are joined by a space, column descriptions by "; " and the
// runs of a column by ", ".
type Words func(id string, args map[string]any) string

// say returns id in w, or in English when w is nil.
func (w Words) say(id string, args map[string]any) string {
	if w != nil {
		return w(id, args)
	}
	return english(id, args)
}

// englishText are the English messages (the "other" form of a plural
// one), and englishOne the "one" forms of the plural ones.
var englishText = map[string]string{
	"alt.size":            "Connect {{.Connect}} on {{.Rows}} rows by {{.Cols}} columns.",
	"alt.boardEmpty":      "The board is empty.",
	"alt.discs":           "Discs from the bottom up: {{.Columns}}.",
	"alt.column":          "column {{.Column}}: {{.Discs}}",
	"alt.columnFull":      "column {{.Column}}: {{.Discs}} (full)",
	"alt.columnEmpty":     "column {{.Column}}: empty",
	"alt.columnsEmptyTwo": "columns {{.From}} and {{.To}}: empty",
	"alt.columnsEmpty":    "columns {{.From}} to {{.To}}: empty",
	"alt.run":             "{{.Count}} {{.Colour}}",
	"alt.noMoves":         "No moves yet.",
	"alt.moves":           "{{.Count}} moves played; last: {{.Who}} in column {{.Column}}.",
	"alt.toMove":          "{{.Who}} to move.",
	"alt.won":             "{{.Who}} won by connecting {{.Connect}}.",
	"alt.wonLines":        "{{.Who}} won by connecting {{.Connect}}: {{.Lines}}.",
	"alt.lineRow":         "in row {{.Row}}, columns {{.From}} to {{.To}}",
	"alt.lineColumn":      "in column {{.Column}}, rows {{.From}} to {{.To}}",
	"alt.lineDiagonal":    "diagonally from column {{.FromColumn}} row {{.FromRow}} to column {{.ToColumn}} row {{.ToRow}}",
	"alt.and":             "{{.A}} and {{.B}}",
	"alt.draw":            "The board is full: a draw.",
	"alt.othersLeft":      "The others left; {{.Who}} won.",
	"alt.resigned":        "{{.Loser}} resigned; {{.Who}} won.",
	"alt.named":           "{{.Name}} ({{.Colour}})",
	"alt.colour.red":      "red",
	"alt.colour.yellow":   "yellow",
	"alt.colour.green":    "green",
	"alt.colour.blue":     "blue",
	"alt.colour.orange":   "orange",
	"alt.colour.pink":     "pink",
}

var englishOne = map[string]string{
	"alt.run":   "{{.Count}} {{.Colour}}",
	"alt.moves": "{{.Count}} move played; last: {{.Who}} in column {{.Column}}.",
}

// english is Words' English: englishText with args filled in.
func english(id string, args map[string]any) string {
	if n, ok := args["Count"].(int); ok && n == 1 {
		if s, ok := englishOne[id]; ok {
			return fill(s, args)
		}
	}
	s, ok := englishText[id]
	if !ok {
		return id
	}
	return fill(s, args)
}

// fill replaces each {{.Name}} of s by args[Name]: a string as it is, an
// int in decimal.
func fill(s string, args map[string]any) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s) + 32)
	for {
		i := strings.Index(s, "{{.")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		sb.WriteString(s[:i])
		switch v := args[s[i+3:i+j]].(type) {
		case string:
			sb.WriteString(v)
		case int:
			sb.WriteString(strconv.Itoa(v))
		}
		s = s[i+j+2:]
	}
	sb.WriteString(s)
	return sb.String()
}
