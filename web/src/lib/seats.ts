/** The seats' colours and shapes on every screen: the boards' own, so all parts agree. */
export { SEAT_COLOURS, seatColour, seatShapePath } from "../boards/common";
