package slack

import (
	"context"

	slackapi "github.com/slack-go/slack"
)

// tenantAPI is the Web API client of the many-workspace mode: each call
// goes out with the token of the workspace its context carries (see
// withWorkspace), and fails with errNoWorkspace when it carries none. It
// serves as webAPI, chatAPI, fileAPI and homeAPI.
type tenantAPI struct{}

var (
	_ webAPI    = tenantAPI{}
	_ chatAPI   = tenantAPI{}
	_ fileAPI   = tenantAPI{}
	_ homeAPI   = tenantAPI{}
	_ unfurlAPI = tenantAPI{}
)

func (t tenantAPI) UnfurlMessageContext(ctx context.Context, channelID, timestamp string, unfurls map[string]slackapi.Attachment, options ...slackapi.MsgOption) (string, string, string, error) {
	c, err := t.client(ctx)
	if err != nil {
		return "", "", "", err
	}
	return c.UnfurlMessageContext(ctx, channelID, timestamp, unfurls, options...)
}

func (t tenantAPI) UnfurlMessageByIDContext(ctx context.Context, unfurlID, source string, unfurls map[string]slackapi.Attachment, options ...slackapi.MsgOption) (string, string, string, error) {
	c, err := t.client(ctx)
	if err != nil {
		return "", "", "", err
	}
	return c.UnfurlMessageByIDContext(ctx, unfurlID, source, unfurls, options...)
}

func (tenantAPI) client(ctx context.Context) (*slackapi.Client, error) {
	if w := workspaceOf(ctx); w != nil {
		return w.client, nil
	}
	return nil, errNoWorkspace
}

func (t tenantAPI) AuthTestContext(ctx context.Context) (*slackapi.AuthTestResponse, error) {
	c, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.AuthTestContext(ctx)
}

func (t tenantAPI) GetUserInfoContext(ctx context.Context, user string, options ...slackapi.GetUserInfoOption) (*slackapi.User, error) {
	c, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.GetUserInfoContext(ctx, user, options...)
}

func (t tenantAPI) PostMessageContext(ctx context.Context, channelID string, options ...slackapi.MsgOption) (string, string, error) {
	c, err := t.client(ctx)
	if err != nil {
		return "", "", err
	}
	return c.PostMessageContext(ctx, channelID, options...)
}

func (t tenantAPI) UpdateMessageContext(ctx context.Context, channelID, timestamp string, options ...slackapi.MsgOption) (string, string, string, error) {
	c, err := t.client(ctx)
	if err != nil {
		return "", "", "", err
	}
	return c.UpdateMessageContext(ctx, channelID, timestamp, options...)
}

func (t tenantAPI) GetUploadURLExternalContext(ctx context.Context, params slackapi.GetUploadURLExternalParameters) (*slackapi.GetUploadURLExternalResponse, error) {
	c, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.GetUploadURLExternalContext(ctx, params)
}

func (t tenantAPI) UploadToURL(ctx context.Context, params slackapi.UploadToURLParameters) error {
	c, err := t.client(ctx)
	if err != nil {
		return err
	}
	return c.UploadToURL(ctx, params)
}

func (t tenantAPI) CompleteUploadExternalContext(ctx context.Context, params slackapi.CompleteUploadExternalParameters) (*slackapi.CompleteUploadExternalResponse, error) {
	c, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.CompleteUploadExternalContext(ctx, params)
}

func (t tenantAPI) PublishViewContext(ctx context.Context, req slackapi.PublishViewContextRequest) (*slackapi.ViewResponse, error) {
	c, err := t.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.PublishViewContext(ctx, req)
}
