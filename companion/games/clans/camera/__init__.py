"""The camera above the Clans board: from the view before a move and the view after it, the one
legal move that explains the change (`propose`), or none and why.

geometry    the photograph's board, mapped onto the board file's 1200 x 800 frame (4 corners)
views       each territory's measure of change, from the outlines in the board file
orient      which of the corners' eight orders shows the position the box knows (or none: not read)
find        the board found without corners: from the huts against the empty board, or from its kept
            view (OpenCV, imported only there)
propose     the decision: the board placed, then one legal move, or none with a reason
watch       the camera at the table: stillness, the empty board, the setup's check, the anchor, the
            proposal, the check after a move, a moved camera (the kiosk's camera thread feeds it)
command     `companion camera propose ...` (docs/contracts.md)
"""
