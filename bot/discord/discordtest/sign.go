package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"time"
)

// Signer signs request bodies as Discord does. The zero Now means
// time.Now.
type Signer struct {
	Key ed25519.PrivateKey
	Now func() time.Time
}

// Sign sets h's X-Signature-Timestamp (Unix seconds) and
// X-Signature-Ed25519 (hex Ed25519 signature of the timestamp followed by
// body).
func (s Signer) Sign(h http.Header, body []byte) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	ts := strconv.FormatInt(now().Unix(), 10)
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.Key, msg)))
}

// NewRequest returns a signed POST of in to url, as Discord sends it. It
// fails only when in cannot be encoded or url is malformed.
func (s Signer) NewRequest(ctx context.Context, url string, in Interaction) (*http.Request, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("discordtest: encode interaction: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("discordtest: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	s.Sign(req.Header, body)
	return req, nil
}

// Client posts signed interactions to an interactions endpoint. It is safe
// for concurrent use if HTTP is.
type Client struct {
	URL    string       // the endpoint, like http://127.0.0.1:8080/discord/interactions
	Signer Signer       // signs every request
	HTTP   *http.Client // nil means http.DefaultClient
}

// maxResponse is the largest response body read.
const maxResponse = 1 << 20

// Send posts in, signed, and returns the decoded response with the HTTP
// status. A non-2xx status is not an error (the response is then zero); a
// transport failure, or a 2xx body that is not a JSON response, is.
func (c *Client) Send(ctx context.Context, in Interaction) (Response, int, error) {
	req, err := c.Signer.NewRequest(ctx, c.URL, in)
	if err != nil {
		return Response{}, 0, err
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Response{}, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return Response{}, resp.StatusCode, fmt.Errorf("discordtest: read response: %w", err)
	}
	var r Response
	if resp.StatusCode/100 == 2 {
		if r, err = DecodeResponse(resp.Header.Get("Content-Type"), raw); err != nil {
			return Response{}, resp.StatusCode, err
		}
	}
	return r, resp.StatusCode, nil
}

// DecodeResponse decodes a response body of Content-Type ct: JSON, or
// multipart/form-data with the JSON as payload_json and files (a response
// that carries a picture). It returns an error for a body that is
// neither, or a multipart body without payload_json.
func DecodeResponse(ct string, raw []byte) (Response, error) {
	var r Response
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		if err := json.Unmarshal(raw, &r); err != nil {
			return Response{}, fmt.Errorf("discordtest: response is not JSON: %w", err)
		}
		return r, nil
	}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	payload := false
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Response{}, fmt.Errorf("discordtest: multipart response: %w", err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			return Response{}, fmt.Errorf("discordtest: multipart response part %s: %w", p.FormName(), err)
		}
		switch {
		case p.FormName() == "payload_json":
			if err := json.Unmarshal(b, &r); err != nil {
				return Response{}, fmt.Errorf("discordtest: payload_json: %w", err)
			}
			r.Payload, payload = b, true
		case p.FileName() != "":
			r.Files = append(r.Files, File{Field: p.FormName(), Name: p.FileName(), Data: b})
		}
	}
	if !payload {
		return Response{}, errors.New("discordtest: multipart response without payload_json")
	}
	return r, nil
}
