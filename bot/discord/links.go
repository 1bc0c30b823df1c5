package discord

// maxLinkURL is the longest url of a link button Discord takes.
const maxLinkURL = 512
