// A star says whether a coin is a favorite only once the page knows the owner's favorites: until
// the server has answered it is neither filled nor empty, and takes no tap (a tap on an empty star
// that was really filled would remove the favorite). `favorite`: true, false, or null (not known).
export function showStar(star, favorite) {
  star.disabled = favorite === null;
  if (favorite === null) star.removeAttribute("aria-pressed");
  else star.setAttribute("aria-pressed", String(favorite));
}
