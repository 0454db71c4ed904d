BEGIN
{
	trace(self->nothere);
}
