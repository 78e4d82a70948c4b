"""Short definitions of the registered techniques, for the catalogue page.

Written for this project (``docs/techniques.md`` is generated from them by
``docs/tools/make_catalogue.py``). Fish definitions are composed from their kind and size.
"""
from __future__ import annotations

#: one hand-written definition per technique name (fish are composed in :func:`definition`)
DEFINITIONS: dict[str, str] = {
    # singles
    "full_house": "A house with a single empty cell: that cell takes the one digit the house "
                  "still lacks.",
    "naked_single": "A cell with only one candidate left must take that digit.",
    "hidden_single": "A digit that can go in only one cell of a house is placed there, "
                     "whatever other candidates that cell has.",
    # rules
    "constraint": "The puzzle's own rules beyond all-different houses (dots, cages, thermos, "
                  "arrows, relations ...) remove candidates that no assignment allowed by one "
                  "rule can use. The step reports the first run of removals made by one rule.",
    # consecutive
    "consecutive_gap_cell": "A cell whose candidates are X-1 and X+1 (and nothing else): "
                            "whichever it holds, X is consecutive to it, so every cell that "
                            "must not be consecutive to it loses X.",
    "consecutive_neighbours": "Across a white dot (digits differing by the dot's value) a "
                              "cell keeps only the digits that have a partner among the "
                              "other cell's candidates.",
    "consecutive_pair_cell": "A cell holding only X and X+1: a buddy (a cell that sees it and "
                             "must not be consecutive to it) can be neither X (same digit, or "
                             "consecutive to X+1) nor X+1.",
    "consecutive_triple_cell": "A cell holding only X-1, X, X+1: X is either equal or "
                               "consecutive to each option, so its non-consecutive buddies "
                               "lose X.",
    "consecutive_locked_pair": "In a house, digit X is confined to two cells that are "
                               "non-consecutive neighbours: one of them is X, so the other "
                               "cannot be X-1 or X+1 (both lose X+-1).",
    "consecutive_locked_nearby": "Digit X of a house is confined to two cells that are not "
                                 "neighbours of each other: a cell next to both (non-"
                                 "consecutively) cannot hold X-1 or X+1.",
    "consecutive_locked_triple": "Digit X of a house is confined to three cells, one of them "
                                 "next to the other two: whichever holds X, that middle cell "
                                 "is X or next to X, so it loses X-1 and X+1.",
    "consecutive_check_pattern": "Digit X of a house is confined to three cells forming a "
                                 "V (check) shape: a cell adjacent to all three is next to X "
                                 "whatever happens, so it loses X-1 and X+1.",
    "consecutive_chain": "Cells a-b-c joined by two white dots with a and c different: b can "
                         "only keep a value v if v leaves a and c two distinct partners; at "
                         "the ends of the digit range (1 and n for difference 1) it does not.",
    # killer
    "killer_combinations": "A cage keeps only the digits of the digit sets that add up to its "
                           "total, fit its cells' candidates and can be matched to its open "
                           "cells.",
    "mandatory_inclusion": "A digit present in every fitting combination of a cage is "
                           "somewhere in the cage: a cell outside it that sees all of the "
                           "cage's cells holding that digit loses it.",
    "cage_house_overlap": "When a house can place a digit only inside one cage, the cage holds "
                          "that digit: combinations without it are dropped.",
    "disjoint_cages": "Two cages whose cells all see each other (both inside one box, say) "
                      "hold different digits: a combination of one cage that shares a digit "
                      "with every combination of the other is dropped (cage 11 of 29/56 and "
                      "cage 8 of 26/35 in one box: 26 meets both, so cage 8 is 35).",
    # sets (set equivalence theory)
    "innies": "Set equivalence with sums, one side left: a union of full houses (A) sums to a "
              "known total; taking away the regions wholly inside it (B: cages, other "
              "houses) leaves a few cells (innies) with a known sum, which limits their "
              "candidates (the rule of 45).",
    "outies": "Set equivalence with sums, the other side left: the regions covering a union "
              "of full houses stick out of it by a few cells (outies), whose sum is the "
              "regions' total minus the houses' total.",
    "innies_outies": "Set equivalence with sums, both sides left: a region crossing the border "
                     "of a union of full houses fixes the difference innies minus outies; "
                     "candidates that cannot satisfy the difference go.",
    "cage_splitting": "When set equivalence fixes the sum of part of a cage, the cage splits "
                      "into two parts with known sums whose digits must still all differ, "
                      "which may rule out combinations neither part rules out alone.",
    "set_sums": "Set equivalence over many cells (6 to 20): two collections of houses and "
                "cages, A and B; the cells counted only in A minus the cells counted only in "
                "B add up to A's total minus B's. The cells keep the digits that can still "
                "make that sum (cells sharing a house all different): the break-in of "
                "boxless killers, e.g. three rows against three columns.",
    "set_equivalence": "Set equivalence with digits: A and B hold every digit as often as "
                       "their full houses and cages allow, so the cells only in A and the "
                       "cells only in B hold the same digits up to the cages' digits. A digit "
                       "one side cannot hold the other cannot hold more often than the cages "
                       "allow; a digit one side must hold the other must hold too.",
    "law_of_leftovers": "Set equivalence with full houses only: k rows (or columns) and k "
                        "jigsaw regions that cover almost the same cells hold every digit k "
                        "times each; the cells left over on one side hold exactly the digits "
                        "of the cells left over on the other side.",
    # inequality
    "inequality_bounds": "A cell greater than k cells that must all differ is greater than "
                         "the k-th smallest digit they can hold together (a cell smaller than "
                         "them: smaller than the k-th largest). Every < of the puzzle takes "
                         "part, however it was made.",
    # indexing
    "indexing": "An indexing cell's digit v says that the v-th cell of its row, column or "
                "box holds a given digit: the indexing cell is not v when that cell cannot "
                "hold the digit, and (the line being a house) the q-th cell does not hold the "
                "digit when the indexing cell cannot be q.",
    # sums
    "sum_arithmetic": "A sum rule whose cells may repeat (arrow, pill arrow, little killer, "
                      "region-sum segments, zipper line) solved with the houses its cells "
                      "share: cells that see each other differ, so a 3-cell shaft in one box "
                      "adds up to at least 6.",
    "combined_sums": "Two sum rules that share a cell or whose cells share houses, solved "
                     "together: digits that no joint solution uses go (two arrows of one "
                     "box, the arrows of one circle, a cage and an arrow).",
    "substituted_sums": "A house sums to 45 (n(n+1)/2). Replace the shafts of the arrows "
                        "that lie in it by their circles (or a circle by its shaft) and one "
                        "equation on a few cells is left, solved with the cells that see each "
                        "other different: its cells keep the digits of its solutions, and a "
                        "digit every solution puts in its cells of one house leaves the "
                        "house's other cells.",
    "house_sums": "A house (box, row or column) with every sum rule that has a cell in "
                  "it (arrows, pill arrows, little killers, region-sum segments), solved "
                  "together: the rules' cells inside the house and out, cells that see each "
                  "other different, and the house's digits that can stand only in the "
                  "rules' cells all placed there. Digits of no joint filling go: several "
                  "arrows whose circles and shafts share a box, which each arrow alone and "
                  "any two together allow.",
    "linked_sums": "Three or four sum rules in a chain (each shares a cell or houses with "
                   "another of them), solved together, cells that see each other "
                   "different: digits of no joint solution go. Arrows whose circles see "
                   "each other along a row and a column and whose shafts meet on a "
                   "diagonal: what one shaft takes narrows a circle two rules away.",
    # exclusion
    "cell_exclusion": "A candidate weakly linked to every candidate of another cell (through "
                      "houses and the rules' links between different digits) would leave "
                      "that cell without a digit: it is false.",
    "house_exclusion": "A candidate weakly linked to every place of a digit in a full house "
                       "(its own cell among them) would leave the house without that digit: "
                       "it is false.",
    "almost_locked_candidates": "Locked candidates of a set of digits, almost: in a full "
                                "house A (a box), every digit of a set S has its places in "
                                "the cells A shares with a house C (a row) plus a few cells "
                                "X of A outside C, fewer than S has digits. A digit of S that "
                                "C holds outside A must sit in X in A, so C outside A holds "
                                "at most |X| digits of S. A candidate of S there that forces "
                                "more cells of C outside A into S (a cell left only digits of "
                                "S once the candidates it sees are gone, or once the rule on "
                                "its cell is read with it: an arrow r9c1 = r8c1 + r9c2 makes "
                                "r9c1 = 9 when r9c2 = 8) would put more than |X| digits of S "
                                "there: it is false. Tried only on grids with rules beyond "
                                "the houses.",
    "two_house_exclusion": "A digit goes once in each of two full houses. A candidate of "
                           "that digit that sees a cell of every pair of its places, one "
                           "per house, that do not see each other, would leave no way to "
                           "place it in both: it is false. Seeing goes through the houses, "
                           "the rules' same-digit links (a knight's or king's move ...) and "
                           "equal cells (clones, palindromes: a cell sees what its equal "
                           "cells see, and every cell equal to one it sees). With houses "
                           "only this is the X-wing, skyscraper, kite and their finned "
                           "forms; it runs on puzzles with same-digit links beyond the "
                           "houses or with equal cells.",
    "three_house_exclusion": "The two-house exclusion over three full houses. A candidate "
                             "of a digit that leaves each of three houses only places "
                             "among which every choice of one place per house holds two "
                             "that see each other would leave no way to place the digit in "
                             "all three: it is false. Seeing goes through the houses, the "
                             "rules' same-digit links and equal cells, as for two houses. "
                             "In an anti-knight jigsaw, r2c5=4 leaves row 4 only r4c9, which "
                             "sees r6c7, so column 7 only r8c7, which shares row 8 with "
                             "both places left to region 7.",
    "digit_chain_exclusion": "One digit followed alone: placing it in a cell takes it from "
                             "every cell that sees that one (houses, a knight's or king's "
                             "move, equal cells such as clones and palindrome partners) "
                             "and puts it in the cells equal to it; a full house left one "
                             "place takes it there, and so on. When a full house is left "
                             "no place (or two placements see each other) the first cell "
                             "is not that digit. In an anti-knight coloring book r1c4=3 "
                             "leaves column 5 only r9c5 (so r6c6, its palindrome partner), "
                             "region 9 only r8c9, row 5 only r5c3, and column 2 no 3. Its "
                             "one-house and few-house cases are the house, two- and "
                             "three-house exclusions; it runs on puzzles with same-digit "
                             "links beyond the houses or with equal cells. It is trial on "
                             "one digit (a single-digit Nishio): it comes just before the "
                             "forcing chains and counts with the forcing family.",
    "digit_chain_verity": "The verity form of the digit chain exclusion: a digit goes in one "
                          "of its places in a full house; when each place, followed through "
                          "the hidden singles of that digit alone, takes the digit from the "
                          "same cell, that cell is not the digit, whichever place the house "
                          "takes. In an anti-knight coloring book, 6 in row 1 at r1c1 or "
                          "r1c2 puts 6 in r7c4, at r1c7-r1c9 puts 6 in r3c5, and r1c5 sees "
                          "r5c5 itself: r5c5 is not 6. Trial on one digit, it counts with "
                          "the forcing family.",
    "rule_exclusion": "With the candidates a candidate sees removed, one of the puzzle's rules "
                      "(a dot, a line, a cage, an arrow, a quadruple), read alone and once, "
                      "has no way left to be satisfied: the candidate is false. One rule, one "
                      "reading: no chain of consequences.",
    # lines
    "whisper_neighbours": "Neighbours on a whisper line differ by the line's difference (5 "
                          "for German whispers) or more: a cell keeps only the digits with "
                          "such a partner among each neighbour's candidates, so a German "
                          "whisper never holds 5. The rule propagation finds the same; this "
                          "step names it.",
    "zipper_totals": "The pairs of a zipper line (cells at equal distance from its centre) "
                     "share one total, the centre digit on a line of odd length. Each "
                     "pair's possible totals (two cells of one house differ) are "
                     "intersected with the others' and the centre's, and each pair keeps "
                     "the digits of its fillings with a common total; when cells of "
                     "different pairs see each other, the line is filled as a whole (two "
                     "pairs and the centre inside one box: the centre is 5 or more, as "
                     "the pairs need two different splits of it).",
    "region_sum_segments": "The segments of a region-sum line (its parts in each box or "
                           "region) share one total. A segment inside one region holds "
                           "different digits, so its possible totals are the sums of the digit "
                           "sets that fit its cells (three cells of a box: 6 or more); the "
                           "common total lies in every segment's set, and each segment keeps "
                           "the digits of fillings with such a total.",
    "between_span": "The inner cells of a between line lie strictly between the two end "
                    "circles; those sharing a house need that many different digits in the "
                    "gap, so the ends are at least that many plus one apart (four inner cells "
                    "of a row: neither end can be 5), and the inner cells keep the digits "
                    "between a pair of ends that still works.",
    "lockout_span": "The inner cells of a lockout line lie outside the range of the two end "
                    "diamonds, which differ by 4 or more; inner cells sharing a house need "
                    "that many different digits outside the range, which bounds how far apart "
                    "the ends can be.",
    "renban_mandatory": "A digit present in every run of consecutive digits that still fits "
                        "a renban line is on the line: a cell outside it that sees all the "
                        "line's cells holding that digit loses it (a 5-cell renban on 1-9 "
                        "always holds 5).",
    "renban_house_overlap": "When a house can place a digit only on a renban line, the "
                            "line's run contains that digit: runs without it are dropped.",
    "renban_house_split": "A renban crossing a house: its cells inside the house hold part "
                          "of the line's run, and the house's other cells must take the "
                          "digits that part leaves, each in its own cell. A part that leaves "
                          "some digit no room (two digits with one cell for both, a cell with "
                          "no digit) goes; the line and the house's other cells keep the "
                          "digits of the parts that remain.",
    "skyscraper_renban": "A skyscraper row or column crossed by renban lines: each renban "
                         "holds one run of consecutive digits, so its cells in the line keep "
                         "to that run, and a digit of the run on a line cell off the renban "
                         "needs a renban cell off the line that does not see that cell. For "
                         "every choice of the renbans' fitting runs (each renban alone, then "
                         "every pair, every three, ..., all together: the smallest group "
                         "that removes something is the step) the clue's count is checked exactly over the line's "
                         "permutations; a digit that no choice allows goes.",
    "renban_cage_exclusion": "A killer cage whose every cell sees every cell of a renban "
                             "line (through a house) shares no digit with it. A "
                             "combination of the cage that meets every run still fitting "
                             "the line goes, and so does a run that meets every "
                             "combination; the line and the cage keep the digits of what "
                             "remains.",
    "entropic_groups": "Any three consecutive cells of an entropic line hold a low (1-3), a "
                       "middle (4-6) and a high (7-9) digit, so cells three apart share a "
                       "group and the three position classes take the three groups, one "
                       "each. An assignment of groups to classes that empties a cell or leaves "
                       "a house with too few digits for its cells is dropped (for lines that "
                       "share a house, their assignments together), and the cells keep the "
                       "groups of the assignments left.",
    "modular_groups": "Like entropic groups, with the remainders mod 3 ({3,6,9}, {1,4,7}, "
                      "{2,5,8}) of a modular line as the three groups.",
    "whisper_polarity": "On a German whisper (adjacent digits differ by 5 or more) every cell "
                        "is low (1-4) or high (6-9) and neighbours alternate: the cells at odd "
                        "and at even positions form two classes, one low and one high. If one "
                        "class cannot be low without leaving a house it touches unfillable "
                        "(more of its cells in a row than low digits left there ...), it is "
                        "high and the other class low. Any difference d with 2d >= n works "
                        "alike.",
    "polarity_count": "Whisper polarity as a colour, with a count: a German whisper's cells "
                      "split into two classes, one low (1-4) and one high (6-9). The rules "
                      "between whispers (a thermo or an arrow at their ends) link their "
                      "polarities: a high end makes the thermo's tip high, so the next "
                      "whisper's end is high. Colour one whisper, carry the colour to the "
                      "whispers it reaches, then read the houses once: a house with more "
                      "cells of one polarity than digits, or a count of a digit set (box 5 "
                      "keeps 7-9 out of column 5, so columns 4 and 6 hold 7, 8 and 9 once "
                      "each outside box 5: four cells there that must be 7-9 are one too "
                      "many), refutes the colour. No digit is placed and no single followed, "
                      "so it is not trial; it comes before the single-digit chains and the "
                      "polarity chain.",
    "polarity_chain": "Whisper polarity carried around the grid: a German whisper's cells "
                      "split into two classes, one low (1-4) and one high (6-9). Give a "
                      "whisper whose polarity is still open one polarity and let the rules "
                      "carry it (a thermo or an arrow at its end makes the next whisper's end "
                      "low or high, a house holds only four low and four high digits ...): if "
                      "a rule breaks, or a house is left with more cells of one polarity than "
                      "digits, the whisper has the other polarity. The \"high and low around "
                      "the loop\" argument of puzzles whose whispers meet at thermos and "
                      "arrows. It is trial over a whole whisper, so it comes just before the "
                      "forcing chains and counts with the forcing family.",
    # pairs
    "pair_rules": "Two cells joined by several rules (a dot and a line, a two-cell cage and a "
                  "line, a dot between cells of one house) keep only the digits that satisfy "
                  "all of them at once with some digit of the other cell; the rule "
                  "propagation checks each rule alone (an X between two cells of a row: "
                  "neither is 5).",
    "neighbour_pinch": "A cell joined by two-cell rules (Kropki dots, XV, whispers ...) to "
                       "neighbours that see each other cannot take a digit that leaves them no "
                       "different digits: the middle of two black dots in one house is not 1, "
                       "3, 6 or 8; a 4 on a German whisper is not between two cells of one "
                       "box (both would be 9).",
    "house_arrangement": "A house whose cells are also joined by two-cell rules (a negative "
                         "XV or ratio rule between the neighbours of a row, a dot or a "
                         "whisper inside a box) keeps only the candidates that take part in "
                         "some filling of the house that satisfies those rules too. With no X "
                         "or V between neighbours, a row whose V pair r7c5-r7c6 holds 1+4 or "
                         "2+3 and whose r7c7 is 1..4 cannot have 1..4 in r7c8 as well: r7c7 "
                         "and r7c8 would be the other pair, adding up to 5 without a V.",
    "band_arrangement": "A band filled together: three rows (or columns) with their boxes "
                        "and every rule whose cells lie inside the band, two-cell rules "
                        "(negative XV or ratio, dots, knight's or king's moves) and cages or "
                        "lines of more cells. Each row and box keeps different digits and "
                        "the rules hold; a candidate that takes part in no such filling of "
                        "the band's open cells is false. Under a negative ratio rule, no "
                        "filling of rows 1-3 puts 1 or 8 in r3c1: the search tries them and "
                        "every branch breaks a rule or leaves a digit of a row no place. "
                        "The search places a digit that a row or box can put in one or two "
                        "cells only before it tries a cell's digits, and a rule over a long "
                        "line (a skyscraper or sandwich clue, an arrow, a lockout cell with "
                        "its ends) narrows the cells after each placement by its own exact "
                        "supports.",
    "window_arrangement": "The band arrangement on a grid without bands: where jigsaw regions "
                          "cross every row, or there are no boxes at all, three consecutive "
                          "rows (or columns) are filled together with the parts of regions "
                          "inside them, the knight's or king's moves, clones and every other "
                          "rule whose cells lie inside the window. Each row keeps all its "
                          "digits, the region cells inside the window differ, the rules hold; "
                          "a candidate that takes part in no such filling of the window's "
                          "open cells is false. On an anti-knight jigsaw, no filling of "
                          "columns 2-4 puts 6 in r6c4.",
    "house_pair_arrangement": "Two houses filled together: two neighbouring rows (columns, "
                              "boxes) joined by two-cell rules between their cells, or a box "
                              "and a row (column) through it when one of them has rules "
                              "inside. Each keeps different digits, cells of a common house "
                              "differ, the rules hold across both, and a candidate that takes "
                              "part in no such filling is false: under a negative XV rule, "
                              "r5c6=1 would make r5c7 9 across its X, row 4's V pairs 2+3 "
                              "and 1+4, and leave row 4's 9 no place.",
    "dot_chain": "Three or more cells joined by dots of one kind (white dots of one "
                 "difference, black dots of one ratio) that all see each other hold different "
                 "digits, so the chain steps the same way all along: consecutive digits (or "
                 "doublings) in order. The cells keep the digits of the sequences that fit, and "
                 "a digit in every such sequence is on the chain, so cells seeing all its "
                 "places there lose it (black dots 1-2-4 or 2-4-8 in a row always hold 2 and "
                 "4).",
    "pair_mandatory": "Two cells joined by a rule (a dot, a line segment, a cage of two): "
                      "when every filling they have left holds digit X, one of them is X, so "
                      "a cell that sees both loses X (a whisper pair {1,6,7}-{1,7} fills as "
                      "17, 61 or 71: always a 1).",
    "cage_rules": "A killer cage whose cells are also joined by two-cell rules (a line along "
                  "the cage, dots inside it) keeps only the fillings that satisfy them too: "
                  "13 along an entropic line is a low, a middle and a high digit (148, 157 or "
                  "247), so no cell holds 3, 6 or 9.",
    # thermo, outside clues, parity
    "thermo_length": "A cell with k cells below it on a thermometer is at least k + 1, and "
                     "with k cells above it at most n - k (on branching thermometers the "
                     "longest chain counts). The rule propagation finds these bounds pair by "
                     "pair; this step names them.",
    "sandwich_crusts": "A sandwich total can be made by k different digits of 2..n-1 only for "
                       "some k, so the crusts 1 and n are that many cells plus one apart: a "
                       "1 (or n) without an n (or 1) at such a distance along the line is "
                       "no crust there (35 on 1-9 needs all seven middle digits, so the "
                       "crusts are the line's ends).",
    "x_sum_length": "The first digit X of an X-sum line says how many digits add up to the "
                    "clue: X keeps only the values whose first X digits can make the total "
                    "(10: X is 2, 3 or 4).",
    "parity_count": "A house holds a fixed number of odd digits (5 on 1-9) and of even "
                    "digits (4). When as many of its open cells must be odd as it still "
                    "lacks odd digits, those cells take all of them and the other cells are "
                    "even (and the same for even).",
    # clone
    "clone_pointing": "Cells that must be equal (clones, the cells of a palindrome at the "
                      "same distance from its ends) hold one digit, so a cell that sees one of "
                      "them sees them all for that digit. When every place a house has left "
                      "for X sees one of the equal cells, none of them can be X.",
    "equal_digit_colouring": "Colour cells that must hold one digit: equal cells (clones, "
                             "palindrome twins), and a cell that is the only one of a house "
                             "able to take a colour's digit (every other cell of the house "
                             "sees a cell of the colour, by the house, a knight's or king's "
                             "move or any other link, or cannot hold its candidates). A "
                             "colour's digit is a candidate of all its cells and has a place "
                             "in every house; the other candidates of its cells go.",
    # intersections
    "locked_pair": "Two cells of one box and one line whose candidates together are just two "
                   "digits: those two digits leave every other cell of both the box and the "
                   "line.",
    "locked_triple": "Three cells in the intersection of a box and a line, holding three "
                     "digits between them: those digits leave the rest of both houses.",
    "locked_candidates_pointing": "All candidates of a digit in a box lie on one row or "
                                  "column: the digit goes in that line inside the box, so it "
                                  "leaves the rest of the line.",
    "locked_candidates_claiming": "All candidates of a digit in a row or column lie inside "
                                  "one box: the digit leaves the box's other cells.",
    # subsets
    "naked_pair": "Two cells of a house with the same two candidates and nothing else: the two "
                  "digits take both cells, so they leave the rest of the house.",
    "naked_triple": "Three cells of a house whose candidates together are three digits: "
                    "those digits fill the three cells and leave the rest of the house.",
    "naked_quadruple": "Four cells of a house with four digits between them: the digits "
                       "leave the other cells of the house.",
    "hidden_pair": "Two digits that can only go in the same two cells of a house: those cells "
                   "hold them, so their other candidates go.",
    "hidden_triple": "Three digits confined to the same three cells of a house: the three "
                     "cells lose every other candidate.",
    "hidden_quadruple": "Four digits confined to four cells of a house: those cells lose "
                        "every other candidate.",
    "clique_subset": "A naked subset in a clique: k cells that see each other pairwise "
                     "(a house and a knight's or king's move, any not-equal link), not all "
                     "in one house, whose candidates together are k digits. Pairwise "
                     "different, they hold exactly those digits, so each digit leaves every "
                     "cell that sees all the clique's cells holding it. With houses only "
                     "every clique lies in one house (naked subsets' ground): it runs on "
                     "puzzles with links beyond the houses.",
    # single-digit patterns
    "remote_pair": "A chain of at least four bivalue cells all holding the same two digits, "
                   "each seeing the next: the digits alternate along it, so a cell seeing two "
                   "ends of opposite parity loses both digits.",
    "skyscraper": "Two parallel rows (or columns) each holding a digit in exactly two places, "
                  "with one end of each aligned: one of the two other ends holds the digit, "
                  "so cells seeing both of them lose it.",
    "two_string_kite": "A row and a column each with a digit in two places, one end of each "
                       "sharing a box: one of the far ends holds the digit, so a cell seeing "
                       "both far ends loses it.",
    "dual_two_string_kite": "Two 2-String Kites built on the same two cells of a box, "
                            "reported together as one step.",
    "turbot_fish": "Two strong links of one digit joined by a weak link (a three-link "
                   "X-chain) that is neither a Skyscraper nor a 2-String Kite: a cell seeing "
                   "both free ends loses the digit.",
    "empty_rectangle": "A box whose candidates for a digit all lie on one row and one column "
                       "of it, plus a strong link outside the box: combining the two removes "
                       "the digit where the link's far end and the box's line cross.",
    "dual_empty_rectangle": "Two Empty Rectangles on the same box, reported together as one "
                            "step.",
    # wings
    "w_wing": "Two cells with the same two candidates {x,y}, whose x candidates are joined by "
              "a strong link on x: one of the two cells is y, so cells seeing both lose y.",
    "xy_wing": "A pivot {x,y} seeing two pincers {x,z} and {y,z}: whichever digit the pivot "
               "takes, one pincer becomes z, so cells seeing both pincers lose z.",
    "xyz_wing": "Like the XY-Wing with the pivot holding z as well ({x,y,z}): cells seeing "
                "the pivot and both pincers lose z.",
    "wxyz_wing": "A pivot with four candidates and three wing cells it sees, each holding z "
                 "and one other pivot digit: some cell of the group is z, so cells seeing "
                 "every z of the group lose z.",
    "vwxyz_wing": "The same pattern with a five-candidate pivot and four wing cells.",
    "uvwxyz_wing": "The same pattern with a six-candidate pivot and five wing cells.",
    "relaxed_wing": "The pivot wings (XYZ up to UVWXYZ) with a looser shape: wing cells may "
                    "hold any subset of the pivot's digits, as long as the group as a whole "
                    "still forces z into one of the cells holding it.",
    # uniqueness
    "bug_plus_1": "Every unsolved cell has two candidates except one cell with three, and "
                  "each digit appears twice in every house except one: that cell must take the "
                  "digit that appears three times, or the puzzle would have two solutions.",
    "uniqueness_test_1": "Four cells on two rows, two columns and two boxes: three hold only "
                         "{a,b}; the fourth cannot be a or b, else the two digits could swap "
                         "(a deadly pattern).",
    "uniqueness_test_2": "A would-be deadly rectangle whose two roof cells each hold {a,b} "
                         "plus the same extra digit c: one roof is c, so cells seeing both "
                         "roofs lose c.",
    "uniqueness_test_3": "The roof cells' extra digits act as one virtual cell that forms a "
                         "naked subset with other cells of a house they share.",
    "uniqueness_test_4": "Two roof cells in one house, where digit a has no other place: one "
                         "roof holds a, so neither roof can be b.",
    "uniqueness_test_5": "Two diagonal roofs (or three corners) each holding {a,b} and the "
                         "same extra digit c: one of them is c, so cells seeing all of them "
                         "lose c.",
    "uniqueness_test_6": "Two diagonal corners are {a,b} only, and digit a is confined to the "
                         "rectangle in both its rows (or both its columns): a cannot be in the "
                         "other two corners.",
    "hidden_rectangle": "A corner with only {a,b}; in the row and column of the opposite "
                        "corner digit a has no place outside the rectangle: the opposite "
                        "corner cannot be b.",
    "avoidable_rectangle_1": "Three corners of a rectangle already solved (not given) as "
                             "a, b, b around the fourth: the fourth cannot be a, which would "
                             "complete a swappable rectangle.",
    "avoidable_rectangle_2": "Two solved corners a and b and two open corners {b,c} and "
                             "{a,c}: one open corner is c, so cells seeing both lose c.",
    # misc
    "sue_de_coq": "Cells in the intersection of a box and a line together with bivalue cells "
                  "from the rest of the box and the rest of the line cover a set of digits "
                  "exactly: each group's digits leave the rest of its house.",
    # colouring
    "simple_colors_trap": "Colour the conjugate pairs of one digit with two alternating "
                          "colours: one colour is true. A candidate that sees both colours "
                          "is false.",
    "simple_colors_wrap": "If two candidates of the same colour see each other, that colour "
                          "is false: all its candidates go.",
    "multi_colors_1": "Two colour clusters of one digit: when colour a1 sees colour b1, a2 or "
                      "b2 is true, so cells seeing both a2 and b2 lose the digit.",
    "multi_colors_2": "When one colour of a cluster sees both colours of another cluster, "
                      "that colour is false.",
    # chains
    "x_chain": "An alternating chain on one digit: strong links (a conjugate pair) alternate "
               "with weak links, starting and ending strong. One end is true, so cells seeing "
               "both ends lose the digit.",
    "xy_chain": "An alternating chain through bivalue cells only: inside each cell the two "
                "digits form a strong link. The chain starts and ends on digit z, so cells "
                "seeing both ends lose z.",
    "continuous_nice_loop": "A closed alternating loop: every weak link becomes strong, so "
                            "candidates that see both ends of a weak link (other than the "
                            "loop's own) go.",
    "discontinuous_nice_loop": "A loop that breaks at one candidate: two strong links meet "
                               "there (it is true) or two weak links (it is false).",
    "aic": "Alternating inference chain over any strong and weak links (cells, houses, "
           "rules): one of its two ends is true, so candidates seeing both go.",
    "grouped_continuous_nice_loop": "A continuous nice loop whose nodes may be groups of "
                                    "candidates of one digit in a box-line intersection.",
    "grouped_discontinuous_nice_loop": "A discontinuous nice loop with group nodes.",
    "grouped_aic": "An AIC with group nodes (several candidates of one digit in a box-line "
                   "intersection acting as one node).",
    # ALS
    "als_xz": "Two almost locked sets (n cells holding n+1 digits) A and B with a restricted "
              "common digit x (every x of A sees every x of B): x is in at most one, so the "
              "other common digit z is in one of them; cells seeing all z of both lose z.",
    "als_xy_wing": "Three ALS: A and B each share a restricted common digit with the pivot C "
                   "(x and y, different); a digit z common to A and B leaves the cells seeing "
                   "all z of A and B.",
    "als_chain": "A chain of ALS, neighbours linked by restricted common digits (each "
                 "different from the previous one): a digit of the first and the last ALS "
                 "leaves cells seeing all its candidates in both.",
    "death_blossom": "A stem cell and, for each of its candidates d, an ALS (petal) holding d "
                     "whose d candidates all see the stem: whatever the stem is, one petal "
                     "loses d and becomes locked, so a digit common to every petal leaves "
                     "cells seeing all its candidates there.",
    # templates
    "template_set": "A template is one placement of a digit in every row, column and box "
                    "compatible with the grid. Cells that hold the digit in every remaining "
                    "template take it.",
    "template_delete": "Candidates of a digit that lie in none of its remaining templates are "
                       "false.",
    # forcing
    "kraken_fish_type_1": "A finned fish that fails only because of its fins: every fin "
                          "leads, by a chain, to the removal of the same candidate, and so "
                          "does the fish itself, so that candidate is false.",
    "kraken_fish_type_2": "A finned fish and one of its cover houses: the digit in that cover "
                          "house and every fin each force the same elimination by chains.",
    "forcing_chain_contradiction": "Assuming a candidate true (or false) and following strong "
                                   "and weak links leads to a contradiction (a cell or a house "
                                   "left empty, a digit twice): the assumption is wrong.",
    "forcing_chain_verity": "Every candidate of a cell (or every place of a digit in a house) "
                            "leads by chains to the same conclusion: that conclusion holds.",
    "forcing_net_contradiction": "As the forcing chain contradiction, but an implication may "
                                 "rest on several earlier ones (a net instead of a chain).",
    "forcing_net_verity": "As the forcing chain verity, with nets: each branch may combine "
                          "several earlier implications.",
    "forcing_net_nested": "A candidate is assumed true and, inside that assumption, forcing-net "
                          "contradictions are applied (recursively, to a bounded depth); if "
                          "that leads to a contradiction the candidate is false.",
}

_SIZE = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale",
         7: "Leviathan"}
_SIZES = {"x_wing": 2, "swordfish": 3, "jellyfish": 4, "squirmbag": 5, "whale": 6,
          "leviathan": 7}
_BASIC = ("For one digit, {k} base houses (rows, or columns) whose candidates all lie in {k} "
          "cover houses of the other direction: the digit fills the base houses exactly "
          "within the cover, so it leaves the rest of the cover houses.")
_KINDS = {
    "basic": "",
    "franken": " Franken fish: boxes may join the base or the cover houses.",
    "mutant": " Mutant fish: rows, columns and boxes may be mixed freely in base and cover.",
}
_FINNED = (" Finned: some base candidates (fins) lie outside the cover. Either the fish holds "
           "or a fin is true, so only cells that also see every fin lose the digit.")
_SASHIMI = (" Sashimi: a finned fish that would not even be a fish without its fins (a base "
            "house keeps only the fin side and one cover candidate).")
_SIAMESE = " Siamese: two finned fish sharing the same base houses, reported as one step."
_NOTE_BIG = (" On a 9x9 grid a basic fish of size five or more always has a smaller "
             "complementary fish in the other direction.")


def _fish(name: str) -> str | None:
    parts = name.split("_")
    size = None
    for key, k in _SIZES.items():
        if name.endswith(key):
            size = k
            parts = name[: -len(key)].rstrip("_").split("_") if name != key else []
            break
    if size is None:
        return None
    words = set(p for p in parts if p)
    if not words <= {"finned", "sashimi", "siamese", "franken", "mutant"}:
        return None
    kind = "franken" if "franken" in words else "mutant" if "mutant" in words else "basic"
    text = _BASIC.format(k=size) + _KINDS[kind]
    if "finned" in words:
        text += _FINNED
    if "sashimi" in words:
        text += _SASHIMI
    if "siamese" in words:
        text += _SIAMESE
    if kind == "basic" and size >= 5 and not words:
        text += _NOTE_BIG
    return text


def definition(name: str) -> str | None:
    """The catalogue's definition of technique ``name`` (None when there is none yet).

    >>> definition("hidden_single").startswith("A digit")
    True
    >>> "Franken" in definition("finned_franken_swordfish")
    True
    """
    return DEFINITIONS.get(name) or _fish(name)
