package bot

// TextForeignButton is told to someone who clicks a button this bot did not
// draw, or whose value was tampered with: it changes nothing.
const TextForeignButton = "That button isn't one of mine, so it did nothing."
