package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// voidElements never have an end tag.
var voidElements = []string{"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

// checkHTML checks page as an HTML5 document, more strictly than browsers
// read one: it tokenizes with no error before the end, every element that
// is not void is closed in order (SVG's self-closing tags allowed), no
// attribute is written twice, ids are unique, there is one html element
// with a lang attribute, one title, and rendering the parsed tree and
// parsing it again gives the same tree (the round trip).
func checkHTML(page []byte) error {
	z := html.NewTokenizer(bytes.NewReader(page))
	var stack []string
	ids := map[string]bool{}
	var lang string
	titles, htmls := 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return fmt.Errorf("tokenizer: %w", err)
			}
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			seen := map[string]bool{}
			for _, a := range tok.Attr {
				if seen[a.Key] {
					return fmt.Errorf("<%s> has attribute %q twice", tok.Data, a.Key)
				}
				seen[a.Key] = true
				if a.Key == "id" {
					if ids[a.Val] {
						return fmt.Errorf("id %q used twice", a.Val)
					}
					ids[a.Val] = true
				}
				if tok.Data == "html" && a.Key == "lang" {
					lang = a.Val
				}
			}
			switch tok.Data {
			case "html":
				htmls++
			case "title":
				if len(stack) > 0 && stack[len(stack)-1] == "head" {
					titles++
				}
			}
			if tt == html.SelfClosingTagToken {
				if !slices.Contains(stack, "svg") && !slices.Contains(voidElements, tok.Data) {
					return fmt.Errorf("<%s/> self-closed outside SVG", tok.Data)
				}
				continue
			}
			if !slices.Contains(voidElements, tok.Data) {
				stack = append(stack, tok.Data)
			}
		case html.EndTagToken:
			if slices.Contains(voidElements, tok.Data) {
				return fmt.Errorf("end tag of void <%s>", tok.Data)
			}
			if len(stack) == 0 || stack[len(stack)-1] != tok.Data {
				return fmt.Errorf("</%s> closes %v", tok.Data, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	switch {
	case len(stack) > 0:
		return fmt.Errorf("unclosed elements %v", stack)
	case htmls != 1:
		return fmt.Errorf("%d html elements", htmls)
	case lang == "":
		return errors.New("no lang attribute on <html>")
	case titles != 1:
		return fmt.Errorf("%d titles in the head", titles)
	case !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")):
		return errors.New("no doctype")
	}
	// The round trip: parse, render, parse, render: the same.
	once, err := reRender(page)
	if err != nil {
		return err
	}
	twice, err := reRender(once)
	if err != nil {
		return err
	}
	if !bytes.Equal(once, twice) {
		return errors.New("rendering the parsed page and parsing it again changes it")
	}
	return nil
}

func reRender(page []byte) ([]byte, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := html.Render(&b, doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// htmlLang returns the lang attribute of page's html element.
func htmlLang(page []byte) string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return ""
	}
	for n := doc.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "html" {
			for _, a := range n.Attr {
				if a.Key == "lang" {
					return a.Val
				}
			}
		}
	}
	return ""
}

// metas returns the content of page's meta tags by property or name.
func metas(page []byte) map[string]string {
	out := map[string]string{}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		tok := z.Token()
		if tok.Data != "meta" {
			continue
		}
		var key, content string
		for _, a := range tok.Attr {
			switch a.Key {
			case "property", "name":
				key = a.Val
			case "content":
				content = a.Val
			}
		}
		if key != "" {
			out[key] = content
		}
	}
}

// textOf returns the text of page, without tags, for searches.
func textOf(page []byte) string {
	var b strings.Builder
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return b.String()
		}
		if tt == html.TextToken {
			b.Write(z.Text())
		}
	}
}
