/*
 * trunc() keeps the largest values (a negative count the smallest), or
 * none; clear() zeroes the values and keeps the keys, and later data
 * starts from zero; normalize() divides what is printed and denormalize()
 * undoes it. Aggregations printed by printa() are not printed again at
 * exit; the others are, in order.
 */
#pragma D option quiet
int n;
tick-100ms
/n == 0/
{
	@top[1] = sum(50); @top[2] = sum(10); @top[3] = sum(40); @top[4] = sum(20);
	@bottom[1] = sum(50); @bottom[2] = sum(10); @bottom[3] = sum(40); @bottom[4] = sum(20);
	@none["x"] = count();
	@cleared["a"] = sum(5); @cleared["b"] = sum(6);
	@rate["a"] = sum(3000); @rate["b"] = sum(1000);
	@never = count();
	trunc(@top, 2);
	trunc(@bottom, -2);
	trunc(@none);
	clear(@cleared);
	normalize(@rate, 1000);
}
tick-100ms
/n == 1/
{
	@cleared["a"] = sum(1);
	printf("top two:");
	printa(@top);
	printf("bottom two:");
	printa(@bottom);
	printf("cleared, then a += 1:");
	printa(@cleared);
	printf("per thousand:");
	printa(@rate);
	denormalize(@rate);
	printf("denormalized:");
	printa(@rate);
	exit(0);
}
tick-100ms
{
	n++;
}
