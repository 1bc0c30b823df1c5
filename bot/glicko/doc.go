// Package glicko rates players with Mark Glickman's Glicko-2 system, exactly
// as described in his "Example of the Glicko-2 system" (revision of
// November 30, 2013): steps 1 to 8, with the Illinois algorithm of step 5.4
// for the new volatility, the 173.7178 scale factor between the Glicko and
// Glicko-2 scales and a convergence tolerance of 0.000001.
//
// A Rating is a player's rating, rating deviation and volatility on the
// Glicko scale (a new player is Default: 1500, 350, 0.06). A System holds
// the system constant τ and updates ratings: Update runs one rating period
// with any number of games (or none, when only the deviation grows), and
// Game rates one game between two players as its own rating period,
// updating both from their ratings before the game.
//
// Two consequences of the paper's maths are worth knowing. With one game
// per rating period, a player's deviation does not fall towards zero: step
// 6 adds the volatility back before every game, and the deviation settles
// around 60 for volatility 0.06. And after wildly improbable results (a
// 400 beating a 2400 whose deviation is small), step 5's f can have more
// than one root; the paper's Illinois iteration, started from its bracket,
// then decides which one is σ′, and this package follows it exactly.
//
// The package is pure maths over float64 values. It imports the standard
// library only and must know nothing of chat platforms, storage, the game
// engine, logging or contexts: callers decide which games are rated and
// where ratings are kept. Invalid input is reported as an *InputError,
// never a panic, and every value it returns is finite.
package glicko
