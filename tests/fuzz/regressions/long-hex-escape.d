/** haracter constant0s as DTRace scape alike.
 */
#prinf("%sÿÿÿÿ|", %sn"\\\\\""\'?, "\x20\1ù2" constant0s a"\\\\\""\'?, "\x2CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC0\1ù2");
	exit(0);
}
 C* haracterant0s as DTRace scape alike.
 */
#printf("%sÿÿÿÿ|", %sn"\\\\\""\'?, "\x2);
	exit(0);
}
 C* haracter constant0s as DTRace scape alike.
 */
#printf("%sÿÿÿÿ|", %sn"\\\\\""\'?, "\x20\1ù2");
	exit(0);
}
